-- urn_pg: urn-sql's PostgreSQL objects, computed natively by urn-core.
--
-- The same objects as urn-sql's portable migration (revision 5), with the same names,
-- parameters, results and messages bit for bit: DOMAIN urn, DOMAIN urn_key, urn_key_v1(urn),
-- urn_key_v1_inline(urn), urn_key_v2(urn), urn_key_v2_inline(urn), urn_key_index(text),
-- urn_key_index(urn_key), urn_check(text), urn_valid(text),
-- urn_nid(urn), urn_nss(urn), urn_rfc8141_key(urn). Tables written for the portable SQL work
-- unchanged.
--
-- CREATE EXTENSION urn_pg in a schema that already holds the portable objects adopts them
-- (ALTER EXTENSION ... ADD) and replaces them in place: the domains keep their OIDs, so every
-- column, stored generated key and index stays; only the domains' CHECKs and the functions'
-- code change. Stored keys are not recomputed, which is safe because the native functions
-- return exactly the portable ones' results (urn-sql's differential tests check it). The
-- constraints are validated below, which re-checks every stored URN (about 0.3 us each).
--
-- The way back is sql/to-portable.sql (see the README).
--
-- Security, as for the portable SQL (SECURITY.md): the script's own queries look names up in
-- pg_catalog alone (CREATE EXTENSION's search_path is the target schema, which other roles may
-- be able to write); it adopts only what the role creating the extension owns (ALTER
-- EXTENSION ADD keeps an object's owner, who could change it again afterwards), refusing
-- anything else with the object's name and owner; the SQL-bodied functions name every
-- built-in pg_catalog.name; urn_pg_invalidate_relcache() is for administrators (EXECUTE
-- revoked from PUBLIC). The native functions read no name at all.

-- 1. Adopt a portable install in this schema: the domains (if they are domains over text) and
--    the functions of the same names and parameters, all owned by the role creating the
--    extension. Anything of the install's names another role owns, or a type of those names
--    that is not a domain over text, stops CREATE EXTENSION with its name and owner.
DO $adopt$
DECLARE
  adopt_caller_path pg_catalog.text := pg_catalog.current_setting('search_path');
  adopt_schema      pg_catalog.text := pg_catalog.current_schema();
  adopt_schema_oid  pg_catalog.oid;
  adopt_obj         record;
BEGIN
  PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
  adopt_schema_oid := (SELECT oid FROM pg_namespace WHERE nspname = adopt_schema);
  -- The schema must be the creating role's or a superuser's (the database's owner counts for a
  -- schema of pg_database_owner, as public is since PostgreSQL 15): its owner can drop
  -- anything in it, and dropping the key functions with CASCADE drops every keyed table's
  -- generated key and unique index.
@@owner_check@@
  FOR adopt_obj IN SELECT typname FROM pg_type
                   WHERE typnamespace = adopt_schema_oid AND typname IN ('urn', 'urn_key') LOOP
    EXECUTE format('ALTER EXTENSION urn_pg ADD DOMAIN %I.%I', adopt_schema, adopt_obj.typname);
  END LOOP;
  IF (SELECT count(*) FROM pg_type WHERE typnamespace = adopt_schema_oid
                                     AND typname IN ('urn', 'urn_key')) = 2 THEN
    FOR adopt_obj IN SELECT to_regprocedure(format(signature, adopt_schema)) AS f
                     FROM unnest(ARRAY[
                       @@adopted_functions@@]) AS signature LOOP
      IF adopt_obj.f IS NOT NULL THEN
        EXECUTE format('ALTER EXTENSION urn_pg ADD FUNCTION %s', adopt_obj.f);
      END IF;
    END LOOP;
  END IF;
  PERFORM pg_catalog.set_config('search_path', adopt_caller_path, true);
END
$adopt$;

-- 2. The domains' checks: the parser itself, raising its own message (rule and byte) as a
--    check_violation whose detail names the domain and constraint.
CREATE FUNCTION urn_domain_check(value text) RETURNS boolean
  LANGUAGE c IMMUTABLE STRICT PARALLEL SAFE
  AS 'MODULE_PATHNAME', 'urn_domain_check_wrapper';
COMMENT ON FUNCTION urn_domain_check(text) IS
  'CHECK of DOMAIN urn: true, or an error with the parser''s message';

CREATE FUNCTION urn_key_domain_check(value text) RETURNS boolean
  LANGUAGE c IMMUTABLE STRICT PARALLEL SAFE
  AS 'MODULE_PATHNAME', 'urn_key_domain_check_wrapper';
COMMENT ON FUNCTION urn_key_domain_check(text) IS
  'CHECK of DOMAIN urn_key: true, or an error saying why the text is not a canonical key';

-- 3. The domains, created or given the native checks in place of the portable regexes: the new
--    CHECKs are added NOT VALID under new names, validated, and only then do the old
--    constraints go and the new ones take their names. (On PostgreSQL 15.20, after ALTER
--    DOMAIN ... DROP CONSTRAINT, DDL in a subtransaction of the same transaction fails,
--    "cannot start a subtransaction when there are unprocessed inval messages"; validating
--    happens in one.) Validating re-checks every stored value. PostgreSQL cannot re-check
--    values inside an array of a domain: while a column such as `see_also urn[]` exists it
--    refuses (SQLSTATE 0A000, "cannot alter type "urn" because column ... uses it") and the
--    constraint stays NOT VALID, which still checks every value written from now on; the
--    stored values passed the portable constraints, which accept the same language.
DO $domains$
DECLARE
  domains_caller_path pg_catalog.text := pg_catalog.current_setting('search_path');
  domains_schema      pg_catalog.text := pg_catalog.current_schema();
  domains_obj         record;
BEGIN
  IF pg_catalog.to_regtype(pg_catalog.format('%I.urn', domains_schema)) IS NULL THEN
    CREATE DOMAIN urn AS pg_catalog.text;
  END IF;
  IF pg_catalog.to_regtype(pg_catalog.format('%I.urn_key', domains_schema)) IS NULL THEN
    CREATE DOMAIN urn_key AS pg_catalog.text;
  END IF;
  ALTER DOMAIN urn ADD CONSTRAINT urn_syntax_next CHECK (urn_domain_check(VALUE)) NOT VALID;
  ALTER DOMAIN urn_key ADD CONSTRAINT urn_key_canonical_next
    CHECK (urn_key_domain_check(VALUE)) NOT VALID;
  PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
  FOR domains_obj IN SELECT t.typname, c.conname FROM pg_constraint c
                     JOIN pg_type t ON t.oid = c.contypid JOIN pg_namespace n ON n.oid = t.typnamespace
                     WHERE n.nspname = domains_schema
                       AND c.conname IN ('urn_syntax_next', 'urn_key_canonical_next') LOOP
    BEGIN
      EXECUTE format('ALTER DOMAIN %I.%I VALIDATE CONSTRAINT %I', domains_schema,
                     domains_obj.typname, domains_obj.conname);
    EXCEPTION WHEN feature_not_supported THEN
      NULL;
    END;
  END LOOP;
  FOR domains_obj IN SELECT t.typname, c.conname FROM pg_constraint c
                     JOIN pg_type t ON t.oid = c.contypid JOIN pg_namespace n ON n.oid = t.typnamespace
                     WHERE n.nspname = domains_schema AND t.typname IN ('urn', 'urn_key')
                       AND c.conname NOT IN ('urn_syntax_next', 'urn_key_canonical_next') LOOP
    EXECUTE format('ALTER DOMAIN %I.%I DROP CONSTRAINT %I', domains_schema,
                   domains_obj.typname, domains_obj.conname);
  END LOOP;
  EXECUTE format('ALTER DOMAIN %1$I.urn RENAME CONSTRAINT urn_syntax_next TO urn_syntax; '
                 'ALTER DOMAIN %1$I.urn_key RENAME CONSTRAINT urn_key_canonical_next TO urn_key_canonical',
                 domains_schema);
  -- The portable SQL's own helpers (its CHECKs' failure paths, revision 2's urn_check_char):
  -- nothing here uses them, and the way back (sql/to-portable.sql) makes them again.
  EXECUTE format('DROP FUNCTION IF EXISTS %1$I.urn_domain_error(pg_catalog.text), '
                 '%1$I.urn_key_domain_error(pg_catalog.text), '
                 '%1$I.urn_key_problem(pg_catalog.text, pg_catalog.text), '
                 '%1$I.urn_raise_check_violation(pg_catalog.text, pg_catalog.text, pg_catalog.text), '
                 '%1$I.urn_check_char(pg_catalog.text)', domains_schema);
  PERFORM pg_catalog.set_config('search_path', domains_caller_path, true);
END
$domains$;
COMMENT ON DOMAIN urn IS 'urn_pg: RFC 8141 URN, at most 65536 bytes, checked by urn-core';
COMMENT ON DOMAIN urn_key IS 'urn_pg: canonical URN key, at most 65536 bytes, checked by urn-core';

-- 4. The functions, created or replaced (same parameter names as the portable ones, which
--    CREATE OR REPLACE cannot rename).
CREATE OR REPLACE FUNCTION urn_check(v text) RETURNS text
  LANGUAGE c IMMUTABLE STRICT PARALLEL SAFE
  AS 'MODULE_PATHNAME', 'urn_check_wrapper';
COMMENT ON FUNCTION urn_check(text) IS
  'NULL for a valid RFC 8141 URN, otherwise the parser''s message (rule and byte)';

CREATE OR REPLACE FUNCTION urn_valid(v text) RETURNS boolean
  LANGUAGE c IMMUTABLE STRICT PARALLEL SAFE
  AS 'MODULE_PATHNAME', 'urn_valid_wrapper';
COMMENT ON FUNCTION urn_valid(text) IS 'Whether the text is a valid RFC 8141 URN';

CREATE OR REPLACE FUNCTION urn_key_v1(u urn) RETURNS text
  LANGUAGE c IMMUTABLE STRICT PARALLEL SAFE
  AS 'MODULE_PATHNAME', 'urn_key_v1_wrapper';
COMMENT ON FUNCTION urn_key_v1(urn) IS
  'The canonical key under KeyRules::V1, urn-core''s Urn::key_with(KeyRules::V1)';

CREATE OR REPLACE FUNCTION urn_key_v2(u urn) RETURNS text
  LANGUAGE c IMMUTABLE STRICT PARALLEL SAFE
  AS 'MODULE_PATHNAME', 'urn_key_v2_wrapper';
COMMENT ON FUNCTION urn_key_v2(urn) IS
  'The canonical key, urn-core''s Urn::key() (KeyRules::V2)';

-- The portable SQL's inlinable twins of urn_key_v1 and urn_key_v2 (what its keyed tables'
-- generated keys call): here the same native functions.
CREATE OR REPLACE FUNCTION urn_key_v1_inline(u urn) RETURNS text
  LANGUAGE c IMMUTABLE STRICT PARALLEL SAFE
  AS 'MODULE_PATHNAME', 'urn_key_v1_wrapper';
COMMENT ON FUNCTION urn_key_v1_inline(urn) IS
  'urn_key_v1(urn) under the name keyed tables'' generated keys call';

CREATE OR REPLACE FUNCTION urn_key_v2_inline(u urn) RETURNS text
  LANGUAGE c IMMUTABLE STRICT PARALLEL SAFE
  AS 'MODULE_PATHNAME', 'urn_key_v2_wrapper';
COMMENT ON FUNCTION urn_key_v2_inline(urn) IS
  'urn_key_v2(urn) under the name keyed tables'' generated keys call';

CREATE OR REPLACE FUNCTION urn_rfc8141_key(u urn) RETURNS text
  LANGUAGE c IMMUTABLE STRICT PARALLEL SAFE
  AS 'MODULE_PATHNAME', 'urn_rfc8141_key_wrapper';
COMMENT ON FUNCTION urn_rfc8141_key(urn) IS
  'The RFC 8141 section 3 key alone (no namespace rules)';

CREATE OR REPLACE FUNCTION urn_nid(u urn) RETURNS text
  LANGUAGE c IMMUTABLE STRICT PARALLEL SAFE
  AS 'MODULE_PATHNAME', 'urn_nid_wrapper';
COMMENT ON FUNCTION urn_nid(urn) IS 'The NID as written';

CREATE OR REPLACE FUNCTION urn_nss(u urn) RETURNS text
  LANGUAGE c IMMUTABLE STRICT PARALLEL SAFE
  AS 'MODULE_PATHNAME', 'urn_nss_wrapper';
COMMENT ON FUNCTION urn_nss(urn) IS 'The NSS as written (percent-encoding kept)';

-- urn_key_index has the portable SQL's body (both are rendered from one place: urn-sql's
-- src/postgres/install.rs): PostgreSQL inlines it into the
-- index expression, which costs less per inserted row than any function call (measured: a
-- native version cost ~0.5 us more per row in a bulk load), and the long keys' digest
-- (sha256, ~1 us) only runs beyond 2,048 bytes.
@@urn_key_index_urn_key@@
COMMENT ON FUNCTION urn_key_index(urn_key) IS
  'What a keyed table''s UNIQUE index stores: the key up to 2048 bytes, else sha256: and its hex digest';

-- The same for the text key column of the table pattern (the portable body too).
@@urn_key_index_text@@
COMMENT ON FUNCTION urn_key_index(text) IS
  'What a keyed table''s UNIQUE index stores: the key up to 2048 bytes, else sha256: and its hex digest';

-- 5. Sessions rebuild their cached relation data, index expressions included (see
--    urn_pg_invalidate_relcache in src/lib.rs). Sent when this commits.
CREATE FUNCTION urn_pg_invalidate_relcache() RETURNS void
  LANGUAGE c VOLATILE STRICT
  AS 'MODULE_PATHNAME', 'urn_pg_invalidate_relcache_wrapper';
COMMENT ON FUNCTION urn_pg_invalidate_relcache() IS
  'Makes every session rebuild its cached index expressions (used when moving to or from urn_pg)';
-- For administrators: any role could otherwise make every session rebuild its caches, again
-- and again.
REVOKE EXECUTE ON FUNCTION urn_pg_invalidate_relcache() FROM PUBLIC;
SELECT urn_pg_invalidate_relcache();
