// docs/fairness.md, "Time stamps": an RFC 3161 TimeStampResp committed beside a close file,
// parsed and checked with PKI.js (pkijs, asn1js: PeculiarVentures), never by hand: granted,
// its SHA-256 imprint the close file's, its CMS signature (and ESS signing-certificate
// attribute) sound under the certificate it carries, and trusted when that signer chains to a
// certificate the verifier trusts, as of genTime. The reasons are umpire verify's words.
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { sha1 } from '@noble/hashes/legacy';
import { Failed, Fatal, EX, hex, equal, sha256 } from './bytes.js';

export const SYSTEM_CAS = '/etc/ssl/certs/ca-certificates.crt';
/** Under entropy players a witness comes within this many seconds of closed_at (close.h). */
export const PLAYERS_WITNESS_WINDOW = 600;
const MAX_TOKEN = 64 * 1024; // TSTAMP_MAX_BYTES (src/core/tstamp.h)
const OID_SHA256 = '2.16.840.1.101.3.4.2.1';
const OID_SIGNED_DATA = '1.2.840.113549.1.7.2';
const OID_TSTINFO = '1.2.840.113549.1.9.16.1.4';
const OID_EKU = '2.5.29.37';
const OID_KEY_USAGE = '2.5.29.15';
const OID_TIME_STAMPING = '1.3.6.1.5.5.7.3.8';
const OID_SIGNING_CERT = '1.2.840.113549.1.9.16.2.12'; // ESS SigningCertificate (SHA-1)
const OID_SIGNING_CERT_V2 = '1.2.840.113549.1.9.16.2.47'; // ESS SigningCertificateV2

const NOT_GRANTED = 'not a granted RFC 3161 time-stamp response';
const ALTERED = 'its signature does not verify under the certificate it carries: the token was altered';

/**
 * The certificates of PEM text (bytes or a string): the DER of each
 * "-----BEGIN CERTIFICATE-----" block, parsed with PKI.js (a block that does not parse is
 * skipped, as OpenSSL's bundle loader skips it). Returns [pkijs.Certificate].
 */
export function pemCertificates(pem) {
	const text = typeof pem === 'string' ? pem : new TextDecoder('latin1').decode(pem);
	const out = [];
	for (const m of text.matchAll(/-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]*?)-----END CERTIFICATE-----/g)) {
		try {
			const der = Uint8Array.from(atob(m[1].replace(/\s+/g, '')), (c) => c.charCodeAt(0));
			out.push(pkijs.Certificate.fromBER(der));
		} catch {
			// not a certificate PKI.js reads: not one this verifier can trust
		}
	}
	return out;
}

/**
 * A --trust-tsa file (name, bytes): its certificates, or Fatal 65 when it holds none (as
 * umpire verify refuses it).
 */
export function trustFile(name, bytes) {
	const certs = pemCertificates(bytes);
	if (!certs.length) throw new Fatal(EX.DATAERR, `--trust-tsa ${name}: no PEM certificate in it (-----BEGIN CERTIFICATE----- expected)`);
	return certs;
}

/** The parts of a response read before any signature: { signed (pkijs.SignedData), tst
 *  (pkijs.TSTInfo) }, or Failed (not granted). */
function readResponse(bytes) {
	if (bytes.length > MAX_TOKEN) throw new Failed(NOT_GRANTED);
	const ab = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
	try {
		const asn = asn1js.fromBER(ab);
		if (asn.offset !== ab.byteLength) throw new Error('trailing bytes');
		const resp = new pkijs.TimeStampResp({ schema: asn.result });
		const status = resp.status.status;
		const token = resp.timeStampToken;
		if ((status !== 0 && status !== 1) || !token || token.contentType !== OID_SIGNED_DATA) throw new Error('not granted');
		const signed = new pkijs.SignedData({ schema: token.content });
		const ec = signed.encapContentInfo;
		if (ec.eContentType !== OID_TSTINFO || !ec.eContent) throw new Error('no TSTInfo');
		const tst = pkijs.TSTInfo.fromBER(ec.eContent.getValue());
		return { signed, tst };
	} catch {
		throw new Failed(NOT_GRANTED);
	}
}

/** The signer may sign time stamps (RFC 3161 2.3, OpenSSL's timestamp-sign purpose): a
 *  critical extended key usage of timeStamping alone, and a key usage, if any, of
 *  digitalSignature and nonRepudiation only. */
function timeStampSigner(cert) {
	const ext = (oid) => (cert.extensions || []).find((e) => e.extnID === oid);
	const eku = ext(OID_EKU);
	if (!eku || !eku.critical) return false;
	const purposes = eku.parsedValue && eku.parsedValue.keyPurposes;
	if (!purposes || purposes.length !== 1 || purposes[0] !== OID_TIME_STAMPING) return false;
	const ku = ext(OID_KEY_USAGE);
	if (ku && ku.parsedValue) {
		const bits = new Uint8Array(ku.parsedValue.valueBlock.valueHexView);
		// digitalSignature (0x80) and nonRepudiation (0x40) of the first byte, nothing else
		if ((bits[0] & 0x3f) || bits.slice(1).some((b) => b)) return false;
	}
	return true;
}

/** The ESS signing-certificate attribute names the signer first (RFC 2634 5.4, RFC 5035):
 *  its certHash is the SHA-1 (v1) or the named hash, SHA-256 by default (v2), of the
 *  signer's certificate. Parsed by asn1js. */
function essNamesSigner(signed, cert) {
	const attrs = signed.signerInfos[0].signedAttrs ? signed.signerInfos[0].signedAttrs.attributes : [];
	const der = new Uint8Array(cert.toSchema().toBER(false));
	for (const a of attrs) {
		if (a.type !== OID_SIGNING_CERT && a.type !== OID_SIGNING_CERT_V2) continue;
		const ids = a.values[0] && a.values[0].valueBlock.value[0];
		const first = ids && ids.valueBlock.value[0];
		if (!first) return false;
		const parts = first.valueBlock.value;
		let hash;
		let got;
		if (a.type === OID_SIGNING_CERT) {
			hash = sha1(der);
			got = parts[0];
		} else {
			const algo = parts[0] instanceof asn1js.Sequence ? new pkijs.AlgorithmIdentifier({ schema: parts[0] }).algorithmId : OID_SHA256;
			if (algo !== OID_SHA256) return false;
			hash = sha256(der);
			got = parts[0] instanceof asn1js.Sequence ? parts[1] : parts[0];
		}
		return got instanceof asn1js.OctetString && equal(new Uint8Array(got.valueBlock.valueHexView), hash);
	}
	return false;
}

/** The signer chains to one of trusted (pkijs.Certificate; a certificate that is not
 *  self-signed ends the chain too, as OpenSSL's partial chain) as of date, through the
 *  token's certificates. PKI.js's engine builds and checks the path; the signer trusted
 *  itself is a path of one (the engine wants an issuer above it), valid at date. */
async function chains(signed, signer, trusted, date) {
	const valid = (c) => c.notBefore.value <= date && date <= c.notAfter.value;
	if (!valid(signer)) return false;
	const der = (c) => new Uint8Array(c.tbsView);
	if (trusted.some((c) => equal(der(c), der(signer)))) return true;
	if (!trusted.length) return false;
	const engine = new pkijs.CertificateChainValidationEngine({
		trustedCerts: trusted, certs: [...(signed.certificates || []).filter((c) => c instanceof pkijs.Certificate && c !== signer), signer], checkDate: date,
	});
	try {
		const r = await engine.verify();
		return r.result === true;
	} catch {
		return false;
	}
}

/**
 * Checks a TimeStampResp (bytes) as the time stamp of the close file closeBytes: Failed with
 * umpire verify's reason when it is not granted, of other bytes, or not sound under the
 * certificate it carries (signature, ESS attribute, the signer's time-stamping usage and
 * validity at genTime). trusted: [pkijs.Certificate] the verifier trusts. Returns { gen (UTC
 * seconds, fractions dropped), trusted (bool) }.
 */
export async function verifyToken(bytes, closeBytes, trusted) {
	const digest = sha256(closeBytes);
	const { signed, tst } = readResponse(bytes);
	const mi = tst.messageImprint;
	const imprint = new Uint8Array(mi.hashedMessage.valueBlock.valueHexView);
	if (mi.hashAlgorithm.algorithmId !== OID_SHA256 || imprint.length !== 32) {
		throw new Failed(`a time stamp of another kind of imprint than SHA-256, not of the close file (SHA-256 ${hex(digest)})`);
	}
	if (!equal(imprint, digest)) throw new Failed(`a time stamp of other bytes (imprint ${hex(imprint)}), not of the close file (SHA-256 ${hex(digest)})`);
	const when = tst.genTime;
	if (!(when instanceof Date) || Number.isNaN(when.getTime())) throw new Failed(NOT_GRANTED);
	const gen = Math.floor(when.getTime() / 1000);
	let signer;
	try {
		if (signed.signerInfos.length !== 1 || tst.version !== 1) throw new Error('one signer, version 1');
		const r = await signed.verify({ signer: 0, data: closeBytes, extendedMode: true, checkChain: false });
		if (!r.signatureVerified || !r.signerCertificate) throw new Error('signature');
		signer = r.signerCertificate;
	} catch {
		throw new Failed(ALTERED);
	}
	if (!timeStampSigner(signer) || !essNamesSigner(signed, signer) || !(await chains(signed, signer, [signer], when))) throw new Failed(ALTERED);
	return { gen, trusted: await chains(signed, signer, trusted, when) };
}
