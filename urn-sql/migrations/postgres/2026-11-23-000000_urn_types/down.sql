-- urn-sql: removes what up.sql created in the current schema (the first schema of the
-- search_path that exists), in its current or any earlier revision (tables using the domains
-- must be dropped first). The domains' CHECKs call functions, and functions with SQL-standard
-- bodies depend on what they call: constraints first, then the functions, callers before
-- callees, then the domains. Every name is looked up in that schema alone. Where the urn_pg
-- extension provides the objects (up.sql then made none), it changes nothing: DROP EXTENSION
-- urn_pg removes them.
DO $drop$
DECLARE
  drop_schema pg_catalog.text := pg_catalog.current_schema();
  drop_caller_path pg_catalog.text := pg_catalog.current_setting('search_path');
  drop_found_urn pg_catalog.oid := pg_catalog.to_regtype('urn');
  drop_item record;
BEGIN
  PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
  IF drop_schema IS NULL OR EXISTS (
       SELECT FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
       WHERE d.classid = 'pg_type'::regclass AND d.objid = drop_found_urn
         AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
         AND e.extname = 'urn_pg') THEN
    PERFORM pg_catalog.set_config('search_path', drop_caller_path, true);
    RETURN;
  END IF;
  FOR drop_item IN SELECT t.typname, c.conname FROM pg_constraint c
                   JOIN pg_type t ON t.oid = c.contypid JOIN pg_namespace n ON n.oid = t.typnamespace
                   WHERE n.nspname = drop_schema AND t.typname IN ('urn', 'urn_key') LOOP
    EXECUTE format('ALTER DOMAIN %I.%I DROP CONSTRAINT %I', drop_schema, drop_item.typname,
                   drop_item.conname);
  END LOOP;
  FOR drop_item IN SELECT unnest(ARRAY[
      'urn_key_domain_error(pg_catalog.text)', 'urn_domain_error(pg_catalog.text)',
      'urn_key_problem(pg_catalog.text, pg_catalog.text)',
      'urn_raise_check_violation(pg_catalog.text, pg_catalog.text, pg_catalog.text)',
      'urn_valid(pg_catalog.text)', 'urn_rfc8141_key(%1$I.urn)', 'urn_nss(%1$I.urn)',
      'urn_nid(%1$I.urn)', 'urn_check(pg_catalog.text)', 'urn_check_char(pg_catalog.text)',
      'urn_key_index(%1$I.urn_key)', 'urn_key_index(pg_catalog.text)',
      'urn_key_v2_inline(%1$I.urn)', 'urn_key_v2(%1$I.urn)',
      'urn_key_v1_inline(%1$I.urn)', 'urn_key_v1(%1$I.urn)']) AS signature LOOP
    EXECUTE format('DROP FUNCTION IF EXISTS %1$I.' || drop_item.signature, drop_schema);
  END LOOP;
  EXECUTE format('DROP DOMAIN IF EXISTS %1$I.urn_key, %1$I.urn', drop_schema);
  PERFORM pg_catalog.set_config('search_path', drop_caller_path, true);
END
$drop$;
