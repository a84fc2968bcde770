-- urn-sql: removes what up.sql created (tables using the domains must be dropped first).
DROP FUNCTION IF EXISTS urn_check(text);
DROP FUNCTION IF EXISTS urn_check_char(text);
DROP FUNCTION IF EXISTS urn_key_index(urn_key);
DROP FUNCTION IF EXISTS urn_key_v1(urn);
DROP DOMAIN IF EXISTS urn_key;
DROP DOMAIN IF EXISTS urn;
