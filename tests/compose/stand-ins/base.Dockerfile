# Stand-in base: a debootstrap minbase bookworm root (imported by scripts/offline-images) with this
# machine's CA certificates and the Debian mirror apt uses here. Only stand-ins carry these CAs.
FROM benchdash-stand-in/bookworm-rootfs
COPY ca/local/ /usr/local/share/ca-certificates/
COPY ca/ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
COPY sources.list /etc/apt/sources.list
ENV SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt \
    PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
    REQUESTS_CA_BUNDLE=/etc/ssl/certs/ca-certificates.crt \
    NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt \
    CARGO_HTTP_CAINFO=/etc/ssl/certs/ca-certificates.crt \
    GIT_SSL_CAINFO=/etc/ssl/certs/ca-certificates.crt \
    LANG=C.UTF-8
CMD ["bash"]
