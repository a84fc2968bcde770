-- urn-sql: removes what up.sql created, in its current or any earlier revision (tables using
-- the domains must be dropped first). The domains' CHECKs call functions, and functions
-- with SQL-standard bodies depend on what they call: constraints first, then the functions,
-- callers before callees, then the domains.
DO $drop$
DECLARE
  con record;
BEGIN
  FOR con IN SELECT contypid::regtype AS domain, conname FROM pg_constraint
             WHERE contypid IN (to_regtype('urn'), to_regtype('urn_key')) LOOP
    EXECUTE format('ALTER DOMAIN %s DROP CONSTRAINT %I', con.domain, con.conname);
  END LOOP;
END
$drop$;
DROP FUNCTION IF EXISTS urn_key_domain_error(text);
DROP FUNCTION IF EXISTS urn_domain_error(text);
DROP FUNCTION IF EXISTS urn_key_problem(text, text);
DROP FUNCTION IF EXISTS urn_raise_check_violation(text, text, text);
DROP FUNCTION IF EXISTS urn_valid(text);
DROP FUNCTION IF EXISTS urn_rfc8141_key(urn);
DROP FUNCTION IF EXISTS urn_nss(urn);
DROP FUNCTION IF EXISTS urn_nid(urn);
DROP FUNCTION IF EXISTS urn_check(text);
DROP FUNCTION IF EXISTS urn_check_char(text);
DROP FUNCTION IF EXISTS urn_key_index(urn_key);
DROP FUNCTION IF EXISTS urn_key_index(text);
DROP FUNCTION IF EXISTS urn_key_v1_inline(urn);
DROP FUNCTION IF EXISTS urn_key_v1(urn);
DROP DOMAIN IF EXISTS urn_key;
DROP DOMAIN IF EXISTS urn;
