// umpire-bls — the BLS12-381 check of a drand round (docs/fairness.md, "The beacon's
// signature"), built on Cloudflare's CIRCL (ecc/bls12381), so umpire hand-writes no
// cryptography. umpire (src/core/bls.c) spawns it; `sign`, `pubkey`
// and `keygen` serve the demo beacon only (tools/demo-play, tools/demo-tune, tests).
//
// Scheme bls-unchained-g1-rfc9380 (drand quicknet): the message of round R is
// SHA-256(R as 8 bytes big-endian), hashed to G1 (RFC 9380, DST below); the signature is that
// point times the secret key, 48 bytes compressed; the public key is the generator of G2 times
// the secret key, 96 bytes compressed. A signature is good when e(sig, G2) = e(H(m), pk).
//
// Usage:
//
//	umpire-bls verify PUBKEY   stdin: lines "ROUND SIGNATURE" (hex); stdout: one line each,
//	                           "ok" or "bad: REASON", written as each line is read; a line
//	                           "batch N" then N such lines: N answers, in order, from one
//	                           batch check (below)
//	umpire-bls sign KEYFILE ROUND...   one signature (hex) per round, per line
//	umpire-bls pubkey KEYFILE  the public key (hex) of the secret key in KEYFILE
//	umpire-bls keygen          a new secret key (64 hex digits), from the system's randomness
//
// A batch of rounds is checked as one random linear combination of their pairing equations
// (the small-exponents batch test of Bellare, Garay and Rabin, 1998): with fresh random
// scalars r_i, e(sum r_i sig_i, G2) = e(sum r_i H(m_i), pk) holds for every batch of good
// signatures and, for a batch holding a bad one, only with probability about 2^-127 over the
// r_i (128-bit scalars, the top bit set). Two pairings for the lot; when it fails, each round is checked alone, so the answer
// still names the bad ones.
//
// Exit 0; 64 on a usage error; 65 when the public key or the key file is not one.
package main

import (
	"bufio"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"

	bls "github.com/cloudflare/circl/ecc/bls12381"
)

// The domain separation tag of drand's bls-unchained-g1-rfc9380 scheme.
const dst = "BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"

func fail(code int, format string, a ...interface{}) {
	fmt.Fprintf(os.Stderr, "umpire-bls: "+format+"\n", a...)
	os.Exit(code)
}

// message is the point of G1 that round's signature signs.
func message(round uint64) *bls.G1 {
	var be [8]byte
	binary.BigEndian.PutUint64(be[:], round)
	digest := sha256.Sum256(be[:])
	var h bls.G1
	h.Hash(digest[:], []byte(dst))
	return &h
}

// publicKey decodes a compressed G2 point: on the curve, in the subgroup, not the identity.
func publicKey(s string) (*bls.G2, error) {
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != bls.G2SizeCompressed || b[0]&0x80 == 0 {
		return nil, fmt.Errorf("public key '%s' is not %d bytes of a compressed G2 point in hex", s, bls.G2SizeCompressed)
	}
	var pk bls.G2
	if err := pk.SetBytes(b); err != nil {
		return nil, fmt.Errorf("public key '%s' is not a point of G2 (%v)", s, err)
	}
	if pk.IsIdentity() {
		return nil, fmt.Errorf("public key '%s' is the identity point", s)
	}
	return &pk, nil
}

// decode reads a signature: a point of G1, in the subgroup, not the identity; or why not.
func decode(s string) (*bls.G1, string) {
	b, err := hex.DecodeString(s)
	if err != nil || strings.ToLower(s) != s {
		return nil, "the signature is not lower-case hex"
	}
	if len(b) != bls.G1SizeCompressed {
		return nil, fmt.Sprintf("the signature is %d bytes, not the %d of a compressed G1 point", len(b), bls.G1SizeCompressed)
	}
	if b[0]&0x80 == 0 {
		return nil, "the signature is not in compressed form (its first bit is clear)"
	}
	var sig bls.G1
	if err := sig.SetBytes(b); err != nil {
		return nil, "the signature is not a point of G1 (not on the curve or not in the subgroup)"
	}
	if sig.IsIdentity() {
		return nil, "the signature is the identity point"
	}
	return &sig, ""
}

// item is one round of a batch: its request, then its signature decoded (or why not).
type item struct {
	round uint64
	sig   string
	why   string
	point *bls.G1
}

// shortMult is k*P for a 128-bit k (big-endian), by double-and-add: the batch's scalars are
// random and public once drawn, so no constant time is needed, and 128 bits bound a bad
// batch's chance to pass by 2^-128 (CIRCL's ScalarMult takes every scalar as 256 bits).
func shortMult(k []byte, p *bls.G1) *bls.G1 {
	var q bls.G1
	q.SetIdentity()
	for _, byt := range k {
		for bit := 7; bit >= 0; bit-- {
			q.Double()
			if byt>>uint(bit)&1 == 1 {
				q.Add(&q, p)
			}
		}
	}
	return &q
}

// batchHolds says whether every decoded item's signature passes, by one random linear
// combination of their pairing equations (the sums computed on every core).
func batchHolds(pk *bls.G2, items []*item) bool {
	workers := runtime.NumCPU()
	sums := make([][2]bls.G1, workers)
	failed := false
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			sums[w][0].SetIdentity()
			sums[w][1].SetIdentity()
			for i := w; i < len(items); i += workers {
				it := items[i]
				var r [16]byte
				if _, err := rand.Read(r[:]); err != nil {
					mu.Lock()
					failed = true
					mu.Unlock()
					return
				}
				r[0] |= 0x80 // never zero: a round left out of the sum would go unchecked
				a := shortMult(r[:], it.point)
				b := shortMult(r[:], message(it.round))
				sums[w][0].Add(&sums[w][0], a)
				sums[w][1].Add(&sums[w][1], b)
			}
		}(w)
	}
	wg.Wait()
	if failed {
		return false // no randomness: each round is checked alone
	}
	var s, h bls.G1
	s.SetIdentity()
	h.SetIdentity()
	for w := range sums {
		s.Add(&s, &sums[w][0])
		h.Add(&h, &sums[w][1])
	}
	e := bls.ProdPairFrac([]*bls.G1{&s, &h}, []*bls.G2{bls.G2Generator(), pk}, []int{1, -1})
	return e.IsIdentity()
}

// batch answers n requests read from in: one batch check of those that decode, and, when
// it fails, each one alone.
func batch(pk *bls.G2, in *bufio.Scanner, out *bufio.Writer, n int) {
	items := make([]*item, 0, n)
	good := make([]*item, 0, n)
	for len(items) < n && in.Scan() {
		it := &item{}
		f := strings.Fields(in.Text())
		if len(f) != 2 {
			it.why = "a line of ROUND SIGNATURE expected"
		} else if r, err := strconv.ParseUint(f[0], 10, 64); err != nil || r == 0 {
			it.why = fmt.Sprintf("round '%s' is not a number from 1", f[0])
		} else {
			it.round, it.sig = r, f[1]
			if it.point, it.why = decode(f[1]); it.why == "" {
				good = append(good, it)
			}
		}
		items = append(items, it)
	}
	if len(good) > 0 && !batchHolds(pk, good) {
		for _, it := range good {
			it.why = check(pk, it.round, it.sig)
		}
	}
	for _, it := range items {
		if it.why == "" {
			fmt.Fprintln(out, "ok")
		} else {
			fmt.Fprintln(out, "bad: "+it.why)
		}
	}
	out.Flush()
}

// check says why sig is not round's signature under pk, or "" when it is.
func check(pk *bls.G2, round uint64, s string) string {
	sig, why := decode(s)
	if why != "" {
		return why
	}
	// e(sig, G2) * e(H(m), pk)^-1 = 1
	e := bls.ProdPairFrac([]*bls.G1{sig, message(round)}, []*bls.G2{bls.G2Generator(), pk}, []int{1, -1})
	if !e.IsIdentity() {
		return fmt.Sprintf("the signature fails the pairing check for round %d under the chain's public key", round)
	}
	return ""
}

func verify(pkHex string) {
	pk, err := publicKey(pkHex)
	if err != nil {
		fail(65, "%v", err)
	}
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 4096), 4096)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		f := strings.Fields(in.Text())
		var why string
		if len(f) == 2 && f[0] == "batch" {
			n, err := strconv.Atoi(f[1])
			if err != nil || n < 1 || n > 1000000 {
				fail(64, "batch '%s': a count from 1 to 1000000 expected", f[1])
			}
			batch(pk, in, out, n)
			continue
		}
		if len(f) != 2 {
			why = "a line of ROUND SIGNATURE expected"
		} else if r, err := strconv.ParseUint(f[0], 10, 64); err != nil || r == 0 {
			why = fmt.Sprintf("round '%s' is not a number from 1", f[0])
		} else {
			why = check(pk, r, f[1])
		}
		if why == "" {
			fmt.Fprintln(out, "ok")
		} else {
			fmt.Fprintln(out, "bad: "+why)
		}
		out.Flush()
	}
	if err := in.Err(); err != nil {
		fail(65, "reading the rounds: %v", err)
	}
}

// secretKey reads 64 hex digits (a scalar below the group order, not zero) from path.
func secretKey(path string) *bls.Scalar {
	data, err := os.ReadFile(path)
	if err != nil {
		fail(66, "%v", err)
	}
	b, err := hex.DecodeString(strings.TrimSpace(string(data)))
	var k bls.Scalar
	if err != nil || len(b) != bls.ScalarSize || k.UnmarshalBinary(b) != nil || k.IsZero() == 1 {
		fail(65, "%s: a secret key of %d bytes in hex (below the group order, not zero) expected", path, bls.ScalarSize)
	}
	return &k
}

func main() {
	a := os.Args[1:]
	switch {
	case len(a) == 2 && a[0] == "verify":
		verify(a[1])
	case len(a) >= 3 && a[0] == "sign":
		k := secretKey(a[1])
		for _, s := range a[2:] {
			r, err := strconv.ParseUint(s, 10, 64)
			if err != nil || r == 0 {
				fail(64, "round '%s' is not a number from 1", s)
			}
			var sig bls.G1
			sig.ScalarMult(k, message(r))
			fmt.Println(hex.EncodeToString(sig.BytesCompressed()))
		}
	case len(a) == 2 && a[0] == "pubkey":
		var pk bls.G2
		pk.ScalarMult(secretKey(a[1]), bls.G2Generator())
		fmt.Println(hex.EncodeToString(pk.BytesCompressed()))
	case len(a) == 1 && a[0] == "keygen":
		var k bls.Scalar
		for k.IsZero() == 1 {
			if err := k.Random(rand.Reader); err != nil {
				fail(71, "%v", err)
			}
		}
		b, _ := k.MarshalBinary()
		fmt.Println(hex.EncodeToString(b))
	default:
		fail(64, "usage: umpire-bls verify PUBKEY | sign KEYFILE ROUND... | pubkey KEYFILE | keygen")
	}
}
