-- urn-sql: removes the MariaDB functions of up.sql from the current database (drop the keyed
-- tables, whose triggers call them, first).
DROP FUNCTION IF EXISTS urn_key_v2;
DROP FUNCTION IF EXISTS urn_key_v1;
DROP FUNCTION IF EXISTS urn_valid;
DROP FUNCTION IF EXISTS urn_check;
DROP PROCEDURE IF EXISTS urn_refuse;
