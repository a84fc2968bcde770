-- urn-sql: removes what up.sql created (tables using the domains must be dropped first).
DROP FUNCTION IF EXISTS urn_key_v1(urn);
DROP FUNCTION IF EXISTS urn_key_nss_v1(text, text);
DROP FUNCTION IF EXISTS urn_issn_valid_v1(text, text);
DROP FUNCTION IF EXISTS urn_isbn_valid_v1(text, text);
DROP FUNCTION IF EXISTS urn_hex_upper_v1(text);
DROP FUNCTION IF EXISTS urn_pct_upper_v1(text);
DROP DOMAIN IF EXISTS urn_key;
DROP DOMAIN IF EXISTS urn;
