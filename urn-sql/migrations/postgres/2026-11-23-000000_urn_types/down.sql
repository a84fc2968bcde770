-- urn-sql: removes what up.sql created (tables using the domains must be dropped first).
DROP FUNCTION IF EXISTS urn_rfc8141_key(urn);
DROP FUNCTION IF EXISTS urn_nss(urn);
DROP FUNCTION IF EXISTS urn_nid(urn);
DROP FUNCTION IF EXISTS urn_valid(text);
DROP FUNCTION IF EXISTS urn_check(text);
DROP FUNCTION IF EXISTS urn_check_char(text);
DROP FUNCTION IF EXISTS urn_key_index(urn_key);
DROP FUNCTION IF EXISTS urn_key_v1(urn);
DROP DOMAIN IF EXISTS urn_key;
DROP DOMAIN IF EXISTS urn;
