// node-crypto.js — Web Crypto as node 18 (Debian 12's nodejs) gives it, made to behave as in
// node 19+ and the browsers. Imported first by every node entry point (tools/umpire-verify.mjs,
// tools/umpire-tlock.mjs and web/test/*.test.mjs):
// - node 18 has Web Crypto only as node:crypto's webcrypto, not as globalThis.crypto, where
//   the libraries take their CSPRNG (age-encryption's @noble/hashes for identities and file
//   keys, beacon.js's batch coefficients): it is set from node:crypto;
// - node 18 calls its X25519 (age's recipients) experimental and says so on standard error,
//   whose first line umpire reports as the tool's reason: that one warning is not printed.
import { webcrypto } from 'node:crypto';
import process from 'node:process';

if (!globalThis.crypto) globalThis.crypto = webcrypto;

const emitWarning = process.emitWarning;
process.emitWarning = function (warning, ...rest) {
	const type = typeof rest[0] === 'string' ? rest[0] : rest[0] && rest[0].type;
	const name = type || (warning && warning.name);
	if (name === 'ExperimentalWarning' && /Web Crypto API|X25519/.test(String(warning && warning.message || warning))) return;
	return emitWarning.call(process, warning, ...rest);
};
