-- urn_pg: urn-sql's PostgreSQL objects, computed natively by urn-core.
--
-- The same objects as urn-sql's portable migration (revision 3), with the same names,
-- parameters, results and errors bit for bit: DOMAIN urn, DOMAIN urn_key, urn_key_v1(urn),
-- urn_key_v1_inline(urn), urn_key_index(text), urn_key_index(urn_key), urn_check(text),
-- urn_valid(text),
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

-- 1. Adopt a portable install in this schema. Only domains over text can be urn-sql's.
DO $adopt$
DECLARE
  d text;
  f text;
BEGIN
  FOREACH d IN ARRAY ARRAY['urn', 'urn_key'] LOOP
    IF to_regtype(d) IS NULL THEN
      CONTINUE;
    END IF;
    IF NOT EXISTS (SELECT FROM pg_type WHERE oid = to_regtype(d) AND typtype = 'd'
                   AND typbasetype = 'text'::regtype) THEN
      RAISE EXCEPTION 'urn_pg: a type named % exists in schema % and is not urn-sql''s domain',
        d, current_schema()
        USING HINT = 'Install urn_pg into another schema: CREATE EXTENSION urn_pg SCHEMA ...';
    END IF;
    EXECUTE format('ALTER EXTENSION urn_pg ADD DOMAIN %I', d);
  END LOOP;
  IF to_regtype('urn') IS NULL OR to_regtype('urn_key') IS NULL THEN
    RETURN;
  END IF;
  FOREACH f IN ARRAY ARRAY['urn_check(text)', 'urn_valid(text)', 'urn_key_v1(urn)',
                           'urn_key_v1_inline(urn)',
                           'urn_rfc8141_key(urn)', 'urn_nid(urn)', 'urn_nss(urn)',
                           'urn_key_index(urn_key)', 'urn_key_index(text)'] LOOP
    IF to_regprocedure(f) IS NOT NULL THEN
      EXECUTE format('ALTER EXTENSION urn_pg ADD FUNCTION %s', to_regprocedure(f));
    END IF;
  END LOOP;
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

-- 3. The domains, created or given the native checks in place of the portable regexes. The
--    comment tells urn-sql's migration that these are not its constraints to upgrade.
DO $domains$
DECLARE
  c record;
BEGIN
  IF to_regtype('urn') IS NULL THEN
    CREATE DOMAIN urn AS text;
  END IF;
  IF to_regtype('urn_key') IS NULL THEN
    CREATE DOMAIN urn_key AS text;
  END IF;
  FOR c IN SELECT contypid::regtype AS domain, conname FROM pg_constraint
           WHERE contypid IN (to_regtype('urn'), to_regtype('urn_key')) LOOP
    EXECUTE format('ALTER DOMAIN %s DROP CONSTRAINT %I', c.domain, c.conname);
  END LOOP;
  -- The portable SQL's own helpers (its CHECKs' failure paths, revision 2's urn_check_char):
  -- nothing here uses them, and the way back (sql/to-portable.sql) makes them again.
  DROP FUNCTION IF EXISTS urn_domain_error(text), urn_key_domain_error(text),
    urn_key_problem(text, text), urn_raise_check_violation(text, text, text),
    urn_check_char(text);
END
$domains$;
ALTER DOMAIN urn ADD CONSTRAINT urn_syntax CHECK (urn_domain_check(VALUE)) NOT VALID;
COMMENT ON DOMAIN urn IS 'urn_pg: RFC 8141 URN, at most 65536 bytes, checked by urn-core';
ALTER DOMAIN urn_key ADD CONSTRAINT urn_key_canonical CHECK (urn_key_domain_check(VALUE)) NOT VALID;
COMMENT ON DOMAIN urn_key IS 'urn_pg: canonical URN key, at most 65536 bytes, checked by urn-core';
-- Validating re-checks every stored value. PostgreSQL cannot re-check values inside an array
-- of a domain: while a column such as `see_also urn[]` exists it refuses (SQLSTATE 0A000,
-- "cannot alter type "urn" because column ... uses it") and the constraint stays NOT VALID,
-- which still checks every value written from now on; the stored values passed the portable
-- constraints, which accept the same language.
DO $validate$
DECLARE
  c record;
BEGIN
  FOR c IN SELECT contypid::regtype AS domain, conname FROM pg_constraint
           WHERE contypid IN (to_regtype('urn'), to_regtype('urn_key')) AND NOT convalidated LOOP
    BEGIN
      EXECUTE format('ALTER DOMAIN %s VALIDATE CONSTRAINT %I', c.domain, c.conname);
    EXCEPTION WHEN feature_not_supported THEN
      NULL;
    END;
  END LOOP;
END
$validate$;

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
  'The canonical key, urn-core''s Urn::key() under KeyRules::V1';

-- The portable SQL's inlinable twin of urn_key_v1 (what its keyed tables' generated key
-- calls): here the same native function.
CREATE OR REPLACE FUNCTION urn_key_v1_inline(u urn) RETURNS text
  LANGUAGE c IMMUTABLE STRICT PARALLEL SAFE
  AS 'MODULE_PATHNAME', 'urn_key_v1_wrapper';
COMMENT ON FUNCTION urn_key_v1_inline(urn) IS
  'urn_key_v1(urn) under the name keyed tables'' generated keys call';

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

-- urn_key_index keeps the portable SQL body, word for word: PostgreSQL inlines it into the
-- index expression, which costs less per inserted row than any function call (measured: a
-- native version cost ~0.5 us more per row in a bulk load), and the long keys' digest
-- (sha256, ~1 us) only runs beyond 2,048 bytes.
CREATE OR REPLACE FUNCTION urn_key_index(k urn_key) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN octet_length(k) <= 2048 THEN k::text
              ELSE 'sha256:' || encode(sha256(k::bytea), 'hex') END;
COMMENT ON FUNCTION urn_key_index(urn_key) IS
  'What a keyed table''s UNIQUE index stores: the key up to 2048 bytes, else sha256: and its hex digest';

-- The same for the text key column of the table pattern (the portable body too).
CREATE OR REPLACE FUNCTION urn_key_index(k text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN octet_length(k) <= 2048 THEN k
              ELSE 'sha256:' || encode(sha256(k::bytea), 'hex') END;
COMMENT ON FUNCTION urn_key_index(text) IS
  'What a keyed table''s UNIQUE index stores: the key up to 2048 bytes, else sha256: and its hex digest';

-- 5. Sessions rebuild their cached relation data, index expressions included (see
--    urn_pg_invalidate_relcache in src/lib.rs). Sent when this commits.
CREATE FUNCTION urn_pg_invalidate_relcache() RETURNS void
  LANGUAGE c VOLATILE STRICT
  AS 'MODULE_PATHNAME', 'urn_pg_invalidate_relcache_wrapper';
COMMENT ON FUNCTION urn_pg_invalidate_relcache() IS
  'Makes every session rebuild its cached index expressions (used when moving to or from urn_pg)';
SELECT urn_pg_invalidate_relcache();
