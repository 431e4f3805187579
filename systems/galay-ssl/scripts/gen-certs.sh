#!/bin/sh
# Test and benchmark certificates (EC P-256, 30 days), generated at build time, never committed:
#   ca.crt/ca.key              the test CA
#   server.crt/server.key      CN=localhost, SAN localhost + 127.0.0.1, signed by the CA
#   client.crt/client.key      a client certificate signed by the CA (mutual TLS tests)
#   rogue-ca.crt, rogue.crt/rogue.key   a server certificate from another CA (verification fails)
set -eu
dir=${1:?usage: gen-certs.sh DIR}
mkdir -p "$dir"
cd "$dir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2>/dev/null; }

ca() {  # name subject
  key "$1.key"
  openssl req -x509 -new -key "$1.key" -sha256 -days 30 -subj "$2" \
    -addext "basicConstraints=critical,CA:TRUE" \
    -addext "keyUsage=critical,keyCertSign,cRLSign" -out "$1.crt"
}

leaf() {  # name subject issuer extensions
  key "$1.key"
  openssl req -new -key "$1.key" -subj "$2" -out "$tmp/$1.csr"
  printf '%s\n' "$4" > "$tmp/$1.ext"
  openssl x509 -req -in "$tmp/$1.csr" -CA "$3.crt" -CAkey "$3.key" -CAcreateserial \
    -CAserial "$tmp/$3.srl" -days 30 -sha256 -extfile "$tmp/$1.ext" -out "$1.crt" 2>/dev/null
}

server_ext='basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=serverAuth
subjectAltName=DNS:localhost,IP:127.0.0.1'
client_ext='basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature
extendedKeyUsage=clientAuth'

ca ca "/CN=galay-ssl test CA"
leaf server "/CN=localhost" ca "$server_ext"
leaf client "/CN=galay-ssl test client" ca "$client_ext"
ca rogue-ca "/CN=galay-ssl rogue CA"
leaf rogue "/CN=localhost" rogue-ca "$server_ext"
rm -f rogue-ca.key
chmod 600 ./*.key
