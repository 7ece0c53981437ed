#!/bin/sh
# make-tsa.sh DIR: a real RFC 3161 time-stamp authority for the tests, made with `openssl`
# (no network, no public authority contacted): a test CA (DIR/testca.pem, its key
# DIR/testca.key), the authority's certificate signed by it (DIR/tsa.pem: extendedKeyUsage
# critical,timeStamping, as RFC 3161 2.3 requires; DIR/tsa.key) and DIR/tsa.cnf, the
# configuration `openssl ts -reply -config DIR/tsa.cnf` signs answers with. Also
# DIR/otherca.pem, a CA that signed nothing here (a certificate a player might trust instead).
set -eu
d=$1
mkdir -p "$d"
cd "$d"
mk_ca() {
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$1.key" \
        -out "$1.pem" -subj "/CN=$2" -days 3650 -addext basicConstraints=critical,CA:TRUE \
        -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null
}
mk_ca testca "umpire test CA"
mk_ca otherca "umpire other CA"
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout tsa.key -out tsa.csr \
    -subj "/CN=umpire test TSA" 2>/dev/null
printf '%s\n' 'basicConstraints=CA:FALSE' 'keyUsage=critical,digitalSignature' \
    'extendedKeyUsage=critical,timeStamping' > tsa.ext
openssl x509 -req -in tsa.csr -CA testca.pem -CAkey testca.key -set_serial 2 -days 3650 \
    -extfile tsa.ext -out tsa.pem 2>/dev/null
echo 01 > serial
cat > tsa.cnf <<CNF
[ tsa ]
default_tsa = tsa_config
[ tsa_config ]
dir = $(pwd)
serial = \$dir/serial
crypto_device = builtin
signer_cert = \$dir/tsa.pem
certs = \$dir/testca.pem
signer_key = \$dir/tsa.key
signer_digest = sha256
default_policy = 1.3.6.1.4.1.99999.1
digests = sha256, sha384, sha512
accuracy = secs:1
clock_precision_digits = 0
ordering = yes
tsa_name = yes
ess_cert_id_chain = no
ess_cert_id_alg = sha256
CNF
