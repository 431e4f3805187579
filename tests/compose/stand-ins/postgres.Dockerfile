# postgres:16: PostgreSQL 16 from the pgserver wheel (its binaries find libpq at
# $ORIGIN/../../../pgserver.libs, as in the wheel) and an entrypoint doing what the image's does
# on first start: cluster, user with password (scram for TCP), database.
FROM benchdash-stand-in/bookworm
COPY pg /usr/lib/postgresql/16
COPY pglibs /usr/lib/pgserver.libs
COPY postgres-entrypoint.sh /usr/local/bin/docker-entrypoint.sh
RUN useradd --system --home-dir /var/lib/postgresql --create-home postgres \
 && mkdir -p /var/lib/postgresql/data && chown -R postgres:postgres /var/lib/postgresql \
 && chmod 700 /var/lib/postgresql/data
ENV PATH=/usr/lib/postgresql/16/bin:$PATH PGDATA=/var/lib/postgresql/data
VOLUME /var/lib/postgresql/data
STOPSIGNAL SIGINT
EXPOSE 5432
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["postgres"]
