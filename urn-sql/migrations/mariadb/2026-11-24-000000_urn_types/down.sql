-- urn-sql: removes the MariaDB routines of up.sql from the current database (keyed tables
-- call none of them: they keep working).
DROP FUNCTION IF EXISTS urn_key_v2;
DROP FUNCTION IF EXISTS urn_key_v1;
DROP FUNCTION IF EXISTS urn_valid;
DROP FUNCTION IF EXISTS urn_check;
DROP PROCEDURE IF EXISTS urn_refuse;
