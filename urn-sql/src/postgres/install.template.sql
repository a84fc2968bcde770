-- urn-sql: URN domains and functions for PostgreSQL (>= 14), revision 5 (the domains' comments
-- say "urn-sql 5"). Idempotent: running it again changes nothing, and running it over an
-- earlier revision (1 to 4) upgrades the domains' constraints and the functions in place,
-- without touching a table or a stored key (revision 5 adds the key functions of the V2 rules;
-- tables keyed by urn_key_v1 keep it, and move to V2 by `urn sql --rekey v2`). It installs into the current schema (the first
-- schema of the search_path that exists). `urn sql --dialect postgres` wraps it in
-- BEGIN/COMMIT, so `psql -v ON_ERROR_STOP=1` either installs everything or nothing; migration
-- tools (diesel, sqlx) run it in their own transaction.
--
-- * DOMAIN urn      RFC 8141 syntax, at most 65536 bytes (urn_core::DEFAULT_MAX_LEN): exactly
--                   what urn_core's parser accepts (tested). A refused value raises the
--                   parser's message, with SQLSTATE 23514 (check_violation) and the
--                   constraint named, as the urn_pg extension does:
--                     ERROR:  invalid URN: '%' at byte 13 in the NSS must be followed by two hex digits
--                     DETAIL:  value for domain urn violates check constraint "urn_syntax"
-- * DOMAIN urn_key  RFC 8141 section 3 canonical form (urn_core::patterns::URN_KEY), at most
--                   65536 bytes; a refused value says why (constraint "urn_key_canonical").
-- * urn_check(text) NULL for a valid URN, otherwise the parser's message.
-- * urn_key_v1(urn), …, one per version of urn-core's `KeyRules`: exactly urn_core's
--                   `Urn::key_with` under that version (RFC 8141 section 3 plus its namespace
--                   rules; the newest is `Urn::key()`).
-- * urn_key_v1_inline(urn), …
--                   the same keys, as SQL expressions PostgreSQL inlines into a keyed
--                   table's generated column (call urn_key_v1, … on text).
-- * urn_valid(text) urn_check(v) IS NULL.
-- * urn_nid(urn), urn_nss(urn)
--                   the NID and the NSS as written; urn_rfc8141_key(urn) the RFC 8141 section 3
--                   key alone (`Urn::rfc8141_key()`).
-- * urn_key_index(text), urn_key_index(urn_key)
--                   what the UNIQUE index stores: the key itself up to 2048 bytes, beyond that
--                   'sha256:' and the hex SHA-256 of the key. A btree entry holds at most 2704
--                   bytes, so a UNIQUE index on a longer incompressible key fails; this way
--                   every URN the domain accepts can be stored and deduplicated.
--
-- Security (see SECURITY.md for the whole model and the tests that show it). Other roles may
-- be able to create objects in a schema on the search_path (CREATE on public was PostgreSQL's
-- default before 15). Nothing here resolves a name through the search_path of a session that
-- uses it, so no such object can run as the writer or change a key:
-- * The domains' CHECKs and every LANGUAGE sql function have SQL-standard bodies, bound to
--   the objects they name when this script creates them; this script resolves names in
--   pg_catalog (first) and the target schema alone, and every built-in function in those
--   bodies is written pg_catalog.name, every type pg_catalog.name, every operator with an
--   operand of the domains either OPERATOR(pg_catalog.op) or on the value cast to
--   pg_catalog.text, every mixed-type operator with operands cast to one built-in type.
--   (A SET clause would stop PostgreSQL inlining the SQL functions into the keyed tables'
--   generated keys and indexes, so they are qualified instead.)
-- * Every PL/pgSQL function runs with `SET search_path = pg_catalog, pg_temp`: PL/pgSQL looks
--   names up when it runs, and then finds built-ins only. It costs ~1.6 us a call
--   (PostgreSQL 15), paid by urn_key_v1, … on the spellings their _inline twins do not
--   key, by urn_rfc8141_key, urn_check and the domains' refusal paths.
-- * This script refuses (with the object's name and owner) any type or function of its names
--   in the target schema that another role owns or that is not what it would make (a domain
--   over text), and it keeps the domains' constraints only when their bound expressions are
--   this revision's (compared with the one it adds, not by comment text).
-- * No literal holds a backslash outside E'' syntax, so standard_conforming_strings = off (or
--   any other session setting) gives the same results and SQLSTATEs.
-- * Every function is linear in its input: no step copies the whole string per character or
--   per escape (measured: 64 KiB of %4a keyed in ~20 ms; revision 3 took 22 s).
-- A query that applies an operator to a urn column itself (`WHERE urn = $1`) resolves it when
-- it is planned, in the writer's search_path: compare keys or cast to text (SECURITY.md).
--
-- Why it looks like this:
-- * Speed. A keyed table pays, per row, the `urn` check and the key. Its key column is text
--   (revision 2's was the urn_key domain, whose check of a key just made cost ~1 us a row).
--   Each domain has one CHECK: an anchored regular expression (revision 2 had six CHECKs,
--   ~3 us), inside a CASE so that only a refused value goes on to the function that finds the
--   parser's message and raises it: valid values never pay for the message. A regex costs by
--   the states it passes through (~0.05 us each, built anew per call), so each value meets the
--   smallest of four grammars that decides it. The key is urn_key_v2_inline, inlined into the
--   generated column: the common spellings cost a few built-in calls (~0.05 us each) instead
--   of a PL/pgSQL call (~0.2 us, plus ~0.08 us a statement, plus its SET clause), and the
--   rest goes to urn_key_v2, PL/pgSQL written as few statements: a first one for a URN that
--   is its own key, then the NID and the NSS once, one CASE for the namespace rules that skips
--   a rule when the letter case is already the key's, the ISBN and ISSN check characters as
--   arithmetic expressions, and the %XX pass only for an NSS with a '%'.
-- * No regex uses a bounded repetition such as '{0,30}': PostgreSQL's regex engine expands
--   it into thirty states (measured: 35% slower); the NID's length (2 to 32) is checked with
--   split_part instead.
-- * The function is not called `urn_key`: PostgreSQL parses a one-argument call named like a
--   type as a cast to that type (docs section 10.3, step 2). It carries its rule version
--   because stored generated columns are not recomputed when a function is replaced: new
--   rules come as urn_key_v2 plus a re-key migration (see the urn-sql README).
-- * urn_key_v1 is PL/pgSQL and urn_key_v1_inline a second function: inlining substitutes the
--   argument at each use, so an inlined `urn_key_v1(x)` on text would run the domain check
--   once per use of the parameter. On a urn column the argument is the column itself.
-- * A restore (pg_dump sets search_path to ''), which computes generated keys, and sessions
--   with any other search_path work: the bodies are bound or run with their own path.
-- * Every case mapping and regex match is pinned to COLLATE "C": under a Turkish ICU default
--   collation lower('I') is a dotless i.
-- * A domain constraint is replaced NOT VALID and then validated where PostgreSQL can (it
--   cannot re-check values inside an array column of the domain).
-- * Where the urn_pg extension (crate urn-pg) owns the domains, it provides every object
--   here natively, with the same results and errors; this script then changes nothing (a
--   NOTICE says so), so applications can run it at start-up on either kind of database.
-- * No extension needed: the domains are plain SQL, the functions SQL and PL/pgSQL (installed
--   in every database by default); IMMUTABLE, PARALLEL SAFE. PostgreSQL 14 or later (the
--   SQL-standard function bodies); no superuser. Run it as the role that is to own the
--   objects (and that owns them already, for an upgrade).
--
-- Table pattern (`urn sql --dialect postgres --table NAME` prints one):
--   urn     urn  NOT NULL,
--   urn_key text COLLATE "C" GENERATED ALWAYS AS (urn_key_v2_inline(urn)) STORED NOT NULL
--   CREATE UNIQUE INDEX items_urn_key_unique ON items ((urn_key_index(urn_key)) COLLATE "C");
-- (Tables made with earlier patterns, the key in the database's collation or revision 2's
-- `urn_key urn_key GENERATED ALWAYS AS (urn_key_v1(urn))`, keep working unchanged;
-- `ALTER TABLE items ALTER COLUMN urn_key TYPE text COLLATE "C"` moves one, see urn-sql's docs/postgresql.md.)

-- Serialises concurrent installers.
SELECT pg_catalog.pg_advisory_xact_lock(8141);

DO $install$
DECLARE
  -- Read under the caller's search_path; every other name below is looked up with
  -- search_path = pg_catalog, pg_temp, except in the CREATE statements (target schema first,
  -- pg_catalog implicitly before it). The variables are named apart from every identifier in
  -- those statements.
  install_caller_path pg_catalog.text := pg_catalog.current_setting('search_path');
  install_schema      pg_catalog.text := pg_catalog.current_schema();
  install_found_urn   pg_catalog.oid  := pg_catalog.to_regtype('urn');
  install_schema_oid  pg_catalog.oid;
  install_has_urn     boolean;
  install_has_urn_key boolean;
  install_has_check_char boolean;
  install_obj         record;
  install_dom         pg_catalog.oid;
  install_probe       pg_catalog.oid;
  install_urn_check   pg_catalog.text;
  install_key_check   pg_catalog.text;
BEGIN
  PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
  IF install_schema IS NULL THEN
    RAISE EXCEPTION 'urn-sql: no schema to install into: no schema on the search_path (%) exists',
      install_caller_path
      USING ERRCODE = 'invalid_schema_name',
            HINT = 'Set search_path to the schema that is to hold the URN domains and functions.';
  END IF;
  IF EXISTS (SELECT FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
             WHERE d.classid = 'pg_type'::regclass AND d.objid = install_found_urn
               AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
               AND e.extname = 'urn_pg') THEN
    RAISE NOTICE 'urn-sql: the urn_pg extension provides the URN domains and functions here';
    PERFORM pg_catalog.set_config('search_path', install_caller_path, true);
    RETURN;
  END IF;
  install_schema_oid := (SELECT oid FROM pg_namespace WHERE nspname = install_schema);

  -- The schema must be the installing role's or a superuser's (the database's owner counts for
  -- a schema of pg_database_owner, as public is since PostgreSQL 15): its owner can drop
  -- anything in it, and dropping the key functions with CASCADE drops every keyed table's
  -- generated key and unique index.
@@owner_check@@
  install_has_urn := EXISTS (SELECT FROM pg_type WHERE typnamespace = install_schema_oid
                                                   AND typname = 'urn');
  install_has_urn_key := EXISTS (SELECT FROM pg_type WHERE typnamespace = install_schema_oid
                                                       AND typname = 'urn_key');
  install_has_check_char := EXISTS (SELECT FROM pg_proc WHERE pronamespace = install_schema_oid
                                                          AND proname = 'urn_check_char');

  -- The CREATE statements: they go into the target schema, and the names in them resolve in
  -- pg_catalog (searched first when not listed) and the target schema.
  PERFORM pg_catalog.set_config('search_path', pg_catalog.format('%I, pg_temp', install_schema), true);
  IF NOT install_has_urn THEN
    CREATE DOMAIN urn AS pg_catalog.text;
  END IF;
  IF NOT install_has_urn_key THEN
    CREATE DOMAIN urn_key AS pg_catalog.text;
  END IF;

-- PL/pgSQL runs the CREATE statements below as they are; they are in this block so that the
-- check above skips them too where urn_pg owns the objects (CREATE OR REPLACE would swap its
-- native code for this SQL).

@@urn_check@@
-- Revision 2's helper of urn_check, now inside it (tested first: IF EXISTS would say so on
-- every run).
IF install_has_check_char THEN
  DROP FUNCTION urn_check_char(pg_catalog.text);
END IF;

-- urn_key_index(urn_key): the value the UNIQUE index of a keyed table stores. Keys of at most
-- 2048 bytes are stored as they are (readable, and as fast as a plain text index); a longer
-- key as 'sha256:' || its SHA-256 in hex, which fits any btree. A key starts with "urn:", so a
-- key and a digest never collide; two long keys collide only if SHA-256 does. k::bytea is the
-- key's bytes: a key is ASCII without '\', the one character the text-to-bytea cast reads
-- specially. Every call in the body is IMMUTABLE and the function is not STRICT, so PostgreSQL
-- inlines it into the index expression; textsend() or convert_to() (both STABLE) would stop
-- that and cost ~2.5 us per inserted row.
-- Its body binds exactly what revision 2's did (rather than calling urn_key_index(text)): a
-- session keeps an index's expression as it was inlined when first used, and ON CONFLICT
-- finds no index for its expression if the body has changed since (measured: "there is no
-- unique or exclusion constraint matching the ON CONFLICT specification" until it reconnects).
-- Writing pg_catalog. before a name the body already bound to pg_catalog changes nothing of it.
@@urn_key_index_urn_key@@

-- urn_key_index(text): the same for the text key column of the table pattern, whose key is
-- generated by the key function and so canonical without the urn_key domain's check (which
-- would run at each use of k in the inlined body). `urn_key_index(urn_key)` on a text column
-- picks this one; on an urn_key column (revision 2's tables), the one above.
@@urn_key_index_text@@

-- urn_key_v1(urn), …, one per version of the key rules: the canonical key, equal to
-- urn_core's `Urn::key_with` under that version (the newest: `Urn::key()`): lower-case "urn"
-- and NID, the namespace's rule of that version (urn-core's table) where the NSS is valid for
-- that namespace, upper-case hex in every %XX, no r-, q- or f-component. The parameter is the `urn`
-- domain, so text arguments are checked (garbage raises the domain's check_violation instead
-- of yielding a wrong key).
--
-- A URN without '%', '?', '#' or an upper-case letter, outside the namespaces whose rule can
-- change such an NSS (urn:isbn: and urn:issn:, whose keys drop or add hyphens and upper-case
-- an 'x'; in V2 also urn:lei:, keyed in upper case, and urn:doi:, whose ':' form becomes '/'),
-- is its own key (every other rule only lower-cases): one statement. Otherwise a rule that
-- only changes letter case is skipped when the case is already the key's (then the rule and
-- the generic key agree), so only an NSS that needs it pays for its namespace's validity
-- check. An ISBN or ISSN with a hyphen to drop or add, or a lower-case 'x', is checked (shape
-- and check character) in a second step. An LEI's check digits are its characters read as one
-- number (each letter its two digits in base 36) modulo 97.
@@key_functions@@

-- urn_key_v1_inline(urn), urn_key_v2_inline(urn): urn_key_v1(urn) and urn_key_v2(urn), each
-- written as one SQL expression that PostgreSQL inlines where it is called on a urn column, as
-- in a keyed table's generated key. The spellings most data has are keyed by a few built-in
-- calls, without a PL/pgSQL call (~0.3 to 0.8 us a row instead of ~0.6 to 2.2 us); the rest
-- goes to the PL/pgSQL function:
-- * an NSS without an upper-case letter or a '%', outside the namespaces named above: the URN
--   lower-cased, without its components (every other namespace rule only lower-cases);
-- * the same with one %XX in the NSS: its two hex digits upper-cased too;
-- * a NID of other than 3 or 4 characters (every NID with a rule has 3 or 4), no '%': the
--   generic key, lower-case prefix and the NSS as written;
-- * urn:isbn: and a hyphenated ISBN-13 (at most four single hyphens between the digits,
--   prefix 978 or 979, the check digit right): the digits. Read as hexadecimal, the digits
--   are the 4-bit halves of a number's bytes, those of weight 1 the low halves of n's bytes and
--   those of weight 3 the low halves of n >> 4's; a sum of bytes is the number modulo 255.
-- (Tests hold these facts to urn-core's namespace table.) Inlining puts the argument at each
-- of its uses, so on text, or on `x::urn`, it would check the domain once per use: call
-- urn_key_v1 or urn_key_v2 there, which check once. Not STRICT (a strict function with a CASE
-- body is not inlined): NULL goes to the ELSE branch, whose function is strict. Operators see
-- u as pg_catalog.text; the bigint arithmetic has bigint operands on both sides.
@@key_inline_functions@@

-- urn_valid(text): whether the text is a valid RFC 8141 URN.
CREATE OR REPLACE FUNCTION urn_valid(v pg_catalog.text) RETURNS boolean
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN urn_check(v) IS NULL;

-- urn_nid(urn), urn_nss(urn): the NID and the NSS as written. The NSS ends at the first '?' or
-- '#', which it cannot contain.
CREATE OR REPLACE FUNCTION urn_nid(u urn) RETURNS pg_catalog.text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN pg_catalog.split_part(u, ':', 2);

CREATE OR REPLACE FUNCTION urn_nss(u urn) RETURNS pg_catalog.text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN pg_catalog.split_part(pg_catalog.split_part(
           pg_catalog.substr(u, pg_catalog.length(pg_catalog.split_part(u, ':', 2)) + 6), '?', 1), '#', 1);

-- urn_rfc8141_key(urn): the RFC 8141 section 3 key alone, urn_core's `Urn::rfc8141_key()`:
-- lower-case "urn" and NID, upper-case hex in every %XX, no r-, q- or f-component. The NSS is
-- split at its '%'s and joined again, as in urn_key_v1: one pass.
CREATE OR REPLACE FUNCTION urn_rfc8141_key(u urn) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
  nid   text := lower(split_part(u, ':', 2) COLLATE "C");
  parts text[] := string_to_array(
    split_part(split_part(substr(u, length(nid) + 6), '?', 1), '#', 1), '%');
BEGIN
@@join_upper_hex@@
END
$fn$;

-- The failure paths of the domains' CHECKs, reached only by a value the check's regular
-- expression refused: each raises the reason as a check_violation whose detail names the
-- domain and constraint (the error PostgreSQL itself would raise, with the reason added).

-- urn_raise_check_violation(message, domain, name): raises that error.
CREATE OR REPLACE FUNCTION urn_raise_check_violation(message pg_catalog.text,
                                                     domain pg_catalog.text,
                                                     name pg_catalog.text)
  RETURNS boolean
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
  RAISE EXCEPTION USING
    ERRCODE = 'check_violation',
    MESSAGE = message,
    DETAIL = format('value for domain %s violates check constraint "%s"', domain, name),
    DATATYPE = domain,
    CONSTRAINT = name;
END
$fn$;

-- urn_key_problem(v, k): why v, a valid URN whose RFC 8141 section 3 key is k, is not a
-- canonical key: a component, or the first byte that differs from the key (urn_core's
-- UrnKey::parse_with under KeyRules::Rfc8141).
@@urn_key_problem@@

-- urn_domain_error(text), urn_key_domain_error(text): the reason for the value, raised.
CREATE OR REPLACE FUNCTION urn_domain_error(v pg_catalog.text) RETURNS boolean
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN urn_raise_check_violation(coalesce(urn_check(v), 'invalid URN'), 'urn', 'urn_syntax');

CREATE OR REPLACE FUNCTION urn_key_domain_error(v pg_catalog.text) RETURNS boolean
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  -- COALESCE evaluates left to right and stops at the first non-NULL: the parser's message
  -- for text that is no URN, else (v::urn then passes) the difference from the key.
  RETURN urn_raise_check_violation(
    coalesce(urn_check(v), urn_key_problem(v, urn_rfc8141_key(v::urn)),
             'invalid URN: not a canonical URN key'),
    'urn_key', 'urn_key_canonical');

  -- The domains' CHECKs. urn_core::patterns::URN with the NID as [A-Za-z0-9-]*[A-Za-z0-9], its
  -- first character and its length (2 to 32) checked apart (split_part(VALUE, ':', 2) is the
  -- NID of a value the regex accepts; fewer regex states, ~0.1 us less), %XX as
  -- %[0-9A-Fa-f][0-9A-Fa-f], '?' and '+' as [?] and [+] (no backslash, whatever
  -- standard_conforming_strings says). A regex costs by the states it passes through, so each
  -- value meets the smallest grammar that decides it: without '%', '?' or '#' (most URNs) the
  -- NSS alone; without '%' or '?' the NSS and an f-component; without '?+' no r-component;
  -- otherwise the whole grammar. Each is the whole grammar restricted to such values.
  -- They are made first on a scratch domain, to compare with what the domains have by their
  -- bound expressions (function and operator OIDs included), not by a comment.
  install_urn_check := $check$
@@urn_syntax_check@@
  $check$;
  install_key_check := $check$
@@urn_key_canonical_check@@
  $check$;
  EXECUTE pg_catalog.format('CREATE DOMAIN %I AS pg_catalog.text CONSTRAINT urn_syntax CHECK (%s) '
                            'CONSTRAINT urn_key_canonical CHECK (%s)',
                            'urn-sql probe', install_urn_check, install_key_check);
  COMMENT ON DOMAIN urn IS 'urn-sql 5: RFC 8141 URN, at most 65536 bytes';
  COMMENT ON DOMAIN urn_key IS 'urn-sql 5: canonical URN key, at most 65536 bytes';

  -- Each domain keeps one constraint: this revision's CHECK. A domain that has exactly that
  -- keeps it as it is (nothing is re-checked); otherwise the CHECK is added under a new name
  -- (NOT VALID: added without scanning), validated, then every other constraint goes (an
  -- earlier revision's, or one bound to other objects) and it takes the name. The order
  -- matters on PostgreSQL 15.20: after ALTER DOMAIN ... DROP CONSTRAINT, DDL in a
  -- subtransaction of the same transaction fails ("cannot start a subtransaction when there
  -- are unprocessed inval messages"), and validating happens in one (EXCEPTION below).
  PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
  install_probe := (SELECT oid FROM pg_type WHERE typnamespace = install_schema_oid
                                              AND typname = 'urn-sql probe');
  FOR install_obj IN SELECT * FROM (VALUES ('urn', 'urn_syntax', install_urn_check),
                                           ('urn_key', 'urn_key_canonical', install_key_check))
                                   AS d(typ, con, expr) LOOP
    install_dom := (SELECT oid FROM pg_type WHERE typnamespace = install_schema_oid
                                              AND typname = install_obj.typ);
    IF (SELECT array_agg(conname::text) FROM pg_constraint WHERE contypid = install_dom)
         IS DISTINCT FROM ARRAY[install_obj.con]
       OR (SELECT pg_get_expr(conbin, 0) FROM pg_constraint
           WHERE contypid = install_dom AND conname = install_obj.con AND contype = 'c')
         IS DISTINCT FROM (SELECT pg_get_expr(conbin, 0) FROM pg_constraint
                           WHERE contypid = install_probe AND conname = install_obj.con) THEN
      PERFORM pg_catalog.set_config('search_path', format('%I, pg_temp', install_schema), true);
      EXECUTE format('ALTER DOMAIN %I.%I ADD CONSTRAINT %I CHECK (%s) NOT VALID', install_schema,
                     install_obj.typ, install_obj.con || '_next', install_obj.expr);
      PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
    END IF;
  END LOOP;
  EXECUTE format('DROP DOMAIN %I.%I', install_schema, 'urn-sql probe');
  -- Validating re-checks every stored value. PostgreSQL cannot re-check values inside an array
  -- (or another container) of a domain: while a column such as `see_also urn[]` exists it
  -- refuses with SQLSTATE 0A000 ("cannot alter type "urn" because column ... uses it"), and
  -- the constraint stays NOT VALID, which still checks every value written from now on. The
  -- stored values were checked by the previous revision's constraints, which accept the same
  -- language; the next run of this script tries again.
  FOR install_obj IN SELECT t.typname, c.conname FROM pg_constraint c JOIN pg_type t ON t.oid = c.contypid
                     WHERE t.typnamespace = install_schema_oid AND t.typname IN ('urn', 'urn_key')
                       AND c.conname IN ('urn_syntax', 'urn_syntax_next', 'urn_key_canonical',
                                         'urn_key_canonical_next')
                       AND NOT c.convalidated LOOP
    BEGIN
      EXECUTE format('ALTER DOMAIN %I.%I VALIDATE CONSTRAINT %I',
                     install_schema, install_obj.typname, install_obj.conname);
    EXCEPTION WHEN feature_not_supported THEN
      NULL;
    END;
  END LOOP;
  -- Where a new CHECK was added, the old constraints go and it takes the name.
  FOR install_obj IN SELECT t.typname, c.conname FROM pg_constraint c JOIN pg_type t ON t.oid = c.contypid
                     WHERE t.typnamespace = install_schema_oid AND t.typname IN ('urn', 'urn_key')
                       AND c.contypid IN (SELECT contypid FROM pg_constraint
                                          WHERE conname IN ('urn_syntax_next', 'urn_key_canonical_next'))
                       AND c.conname NOT IN ('urn_syntax_next', 'urn_key_canonical_next') LOOP
    EXECUTE format('ALTER DOMAIN %I.%I DROP CONSTRAINT %I',
                   install_schema, install_obj.typname, install_obj.conname);
  END LOOP;
  FOR install_obj IN SELECT t.typname, c.conname FROM pg_constraint c JOIN pg_type t ON t.oid = c.contypid
                     WHERE t.typnamespace = install_schema_oid
                       AND c.conname IN ('urn_syntax_next', 'urn_key_canonical_next') LOOP
    EXECUTE format('ALTER DOMAIN %I.%I RENAME CONSTRAINT %I TO %I', install_schema,
                   install_obj.typname, install_obj.conname,
                   regexp_replace(install_obj.conname, '_next$', ''));
  END LOOP;
  PERFORM pg_catalog.set_config('search_path', install_caller_path, true);
END
$install$;
