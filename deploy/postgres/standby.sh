#!/bin/sh
# `scale` profile, service db-replica (postgres:16 image, user postgres): a hot standby of `db`.
# The first start copies the primary with pg_basebackup (-R: standby.signal and primary_conninfo
# with the replication role's password from .env, slot benchdash_standby); every start then
# runs PostgreSQL on that copy, which streams and replays the primary's WAL and answers reads.
set -eu
: "${POSTGRES_REPLICATION_PASSWORD:?set POSTGRES_REPLICATION_PASSWORD in .env for the scale profile}"
user="${POSTGRES_REPLICATION_USER:-replicator}"
# PGDATA is a folder inside the volume: PostgreSQL wants its data folder mode 0700, which the
# volume's root (as the image made it) need not be.
mkdir -p "$PGDATA" && chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  until PGPASSWORD="$POSTGRES_REPLICATION_PASSWORD" pg_basebackup -h db -U "$user" \
      -D "$PGDATA" -X stream -R -S benchdash_standby -c fast; do
    echo "db-replica: pg_basebackup failed; again in 2 s" >&2
    rm -rf "${PGDATA:?}"/* && sleep 2
  done
  echo "db-replica: copied the primary; starting as its standby"
fi
exec postgres -D "$PGDATA" -c hot_standby=on -c listen_addresses='*'
