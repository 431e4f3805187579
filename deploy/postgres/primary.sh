#!/bin/sh
# `scale` profile, service db-replication (one-shot, postgres:16 image, user postgres, the
# primary's volume at /var/lib/postgresql/data): let the standby stream from the primary `db`.
# Idempotent: a replication role with the password from .env, a pg_hba line for it, a physical
# replication slot (so the primary keeps the WAL the standby still needs, capped by
# max_slot_wal_keep_size), then a configuration reload. Nothing else of the primary changes.
set -eu
user="${POSTGRES_REPLICATION_USER:-replicator}"
: "${POSTGRES_REPLICATION_PASSWORD:?set POSTGRES_REPLICATION_PASSWORD in .env for the scale profile}"
hba=/var/lib/postgresql/data/pg_hba.conf
line="host replication $user all scram-sha-256"
until [ -s "$hba" ]; do sleep 1; done
grep -qxF "$line" "$hba" || printf '%s\n' "$line" >> "$hba"
PGPASSWORD="$POSTGRES_PASSWORD" psql -X -q -v ON_ERROR_STOP=1 -h db -U benchdash -d benchdash \
  -v user="$user" -v password="$POSTGRES_REPLICATION_PASSWORD" <<'SQL'
SELECT format('CREATE ROLE %I LOGIN REPLICATION', :'user')
  WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'user') \gexec
ALTER ROLE :"user" LOGIN REPLICATION PASSWORD :'password';
SELECT pg_create_physical_replication_slot('benchdash_standby')
  WHERE NOT EXISTS (SELECT FROM pg_replication_slots WHERE slot_name = 'benchdash_standby');
ALTER SYSTEM SET max_slot_wal_keep_size = '2GB';
SELECT pg_reload_conf();
SQL
echo "db-replication: role $user may stream from db (slot benchdash_standby)"
