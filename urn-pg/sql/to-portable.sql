-- Moves a database from the urn_pg extension back to urn-sql's portable SQL without touching a
-- table: the extension lets go of the objects both define, urn-sql's migration replaces their
-- code and checks in place, and DROP EXTENSION removes what is left (two native check
-- functions, urn_pg_invalidate_relcache). Stored keys stay valid: both compute them bit for
-- bit alike.
--
-- Run all three steps in one transaction, with search_path on the extension's schema:
--   psql -v ON_ERROR_STOP=1 --single-transaction \
--     -f urn-pg/sql/to-portable.sql \
--     -f urn-sql/migrations/postgres/2026-11-23-000000_urn_types/up.sql \
--     -c 'DROP EXTENSION urn_pg'
-- Sessions must re-read index expressions that inlined the functions about to change (sent
-- at commit).
SELECT urn_pg_invalidate_relcache();
ALTER EXTENSION urn_pg DROP DOMAIN urn;
ALTER EXTENSION urn_pg DROP DOMAIN urn_key;
ALTER EXTENSION urn_pg DROP FUNCTION urn_check(text);
ALTER EXTENSION urn_pg DROP FUNCTION urn_valid(text);
ALTER EXTENSION urn_pg DROP FUNCTION urn_key_v1(urn);
ALTER EXTENSION urn_pg DROP FUNCTION urn_key_v2(urn);
ALTER EXTENSION urn_pg DROP FUNCTION urn_rfc8141_key(urn);
ALTER EXTENSION urn_pg DROP FUNCTION urn_nid(urn);
ALTER EXTENSION urn_pg DROP FUNCTION urn_nss(urn);
ALTER EXTENSION urn_pg DROP FUNCTION urn_key_index(urn_key);
ALTER EXTENSION urn_pg DROP FUNCTION urn_key_index(text);
ALTER EXTENSION urn_pg DROP FUNCTION urn_key_v1_inline(urn);
ALTER EXTENSION urn_pg DROP FUNCTION urn_key_v2_inline(urn);
