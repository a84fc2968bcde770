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
  IF NOT EXISTS (
    SELECT FROM pg_namespace n
    JOIN pg_roles o ON o.oid = CASE WHEN (SELECT r.rolname FROM pg_roles r WHERE r.oid = n.nspowner)
                                         = 'pg_database_owner'
                               THEN (SELECT d.datdba FROM pg_database d
                                     WHERE d.datname = current_database())
                               ELSE n.nspowner END
    WHERE n.oid = install_schema_oid AND (o.rolsuper OR o.rolname = current_user)) THEN
    RAISE EXCEPTION 'urn-sql: not installing into schema %: its owner % is neither %, the role running this install, nor a superuser',
      install_schema, (SELECT n.nspowner::regrole FROM pg_namespace n WHERE n.oid = install_schema_oid), current_user
      USING ERRCODE = 'insufficient_privilege',
            HINT = 'Install into a schema the installing role owns: that schema''s owner could '
                   'drop the key functions, and with CASCADE every keyed table''s index.';
  END IF;

  -- What this install relies on must be its own: in the target schema, a type named urn or
  -- urn_key must be a domain over text, and it and every function of this install's names
  -- must belong to the role running it. Anything else another role made, and keeping it
  -- would run that role's code in every writer's session, or keep its checks.
  FOR install_obj IN
    SELECT 'type ' || t.oid::regtype::text AS what, t.typowner AS owner,
           t.typtype = 'd' AND t.typbasetype = 'text'::regtype::oid AS fits
    FROM pg_type t
    WHERE t.typnamespace = install_schema_oid AND t.typname IN ('urn', 'urn_key')
    UNION ALL
    SELECT 'function ' || p.oid::regprocedure::text, p.proowner, true
    FROM pg_proc p
    WHERE p.pronamespace = install_schema_oid
      AND p.proname IN ('urn_check', 'urn_check_char', 'urn_valid', 'urn_key_v1',
                        'urn_key_v1_inline', 'urn_key_v2', 'urn_key_v2_inline', 'urn_key_index',
                        'urn_rfc8141_key', 'urn_nid', 'urn_nss', 'urn_raise_check_violation',
                        'urn_key_problem', 'urn_domain_error', 'urn_key_domain_error')
    ORDER BY 1
  LOOP
    IF NOT install_obj.fits THEN
      RAISE EXCEPTION 'urn-sql: % (owner %) exists and is not urn-sql''s domain over text',
        install_obj.what, install_obj.owner::regrole
        USING ERRCODE = 'wrong_object_type',
              HINT = 'Drop or rename it, or install into another schema.';
    ELSIF install_obj.owner <> (SELECT oid FROM pg_roles WHERE rolname = current_user) THEN
      RAISE EXCEPTION 'urn-sql: % is owned by %, not by %, the role running this install',
        install_obj.what, install_obj.owner::regrole, current_user
        USING ERRCODE = 'insufficient_privilege',
              HINT = 'Run the install as its owner if that role is trusted (or, as a superuser, '
                     'ALTER ... OWNER TO the installing role); otherwise drop it: its code would '
                     'run in every session that writes a URN.';
    END IF;
  END LOOP;
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

-- urn_check(text): NULL when the text is a valid RFC 8141 URN, otherwise urn_core's message
-- for it (the same rule and byte offset as `Urn::parse`), e.g.
--   SELECT urn_check('urn:example:a%zz');
--   invalid URN: '%' at byte 13 in the NSS must be followed by two hex digits
-- A port of the parser's single pass in which regexes consume each component's longest valid
-- prefix. Every character before an error is ASCII, so character position p is byte p - 1.
-- Linear: a constant number of steps per component, each one pass. Rendered by urn-sql
-- (src/postgres/check.rs) from urn-core's character classes and message parts.
CREATE OR REPLACE FUNCTION urn_check(v text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
  nid  text;
  comp text;    -- the component being scanned, named as in the messages
  body text;    -- the regex of that component's characters
  p    int;     -- the character position being looked at (1-based)
  q    int;     -- where the component's characters start
  c    text;
BEGIN
  IF octet_length(v) > 65536 THEN
    RETURN 'invalid URN: longer than the maximum of 65536 bytes (byte 65536)';
  END IF;
  FOR i IN 1..4 LOOP
    c := substr(v, i, 1);
    IF c = '' OR lower(c COLLATE "C") <> substr('urn:', i, 1) THEN
      -- What comes before a URN rather than in it: a byte order mark, nothing, white space.
      IF i = 1 THEN
        IF v ~ E'^\\uFEFF' THEN
          RETURN 'invalid URN: the input starts with a UTF-8 byte order mark (U+FEFF, bytes EF BB BF) at byte 0; remove it';
        ELSIF v ~ E'^[\\u0009-\\u000D\\u0020\\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028-\\u2029\\u202F\\u205F\\u3000]*$' THEN
          RETURN 'invalid URN: the input is empty or only whitespace (byte 0)';
        ELSIF v ~ E'^[\\u0009-\\u000D\\u0020\\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028-\\u2029\\u202F\\u205F\\u3000]' THEN
          RETURN 'invalid URN: leading whitespace at byte 0 (a URN has none; trim the input)';
        END IF;
      END IF;
      RETURN 'invalid URN: expected ''urn:'' at byte ' || i - 1;
    END IF;
  END LOOP;

  -- Leaving this block: character c at position p is not allowed in comp.
  <<scan>>
  BEGIN
    nid := substring(substr(v, 5) COLLATE "C" from '^[A-Za-z0-9-]*');
    p := 5 + length(nid);
    c := substr(v, p, 1);
    IF length(nid) > 32 THEN
      RETURN 'invalid URN: NID of ' || length(nid) || ' characters at byte 4: it must have 2 to 32';
    ELSIF c = '' THEN
      RETURN 'invalid URN: the NID must be followed by '':'' (byte ' || p - 1 || ')';
    ELSIF c <> ':' THEN
      comp := 'NID';
      EXIT scan;
    ELSIF left(nid, 1) = '-' THEN
      RETURN 'invalid URN: ''-'' at byte 4 cannot start the NID';
    ELSIF length(nid) < 2 THEN
      RETURN 'invalid URN: NID of ' || length(nid) || ' character' || CASE WHEN length(nid) = 1 THEN '' ELSE 's' END || ' at byte 4: it must have 2 to 32';
    ELSIF right(nid, 1) = '-' THEN
      RETURN 'invalid URN: ''-'' at byte ' || p - 2 || ' cannot end the NID';
    END IF;
    p := p + 1;

    -- The NSS, then each component that follows: ?+r, ?=q, #f.
    comp := 'NSS';
    LOOP
      c := substr(v, p, 1);
      IF comp <> 'f-component' THEN
        IF c = '' OR c = '#' OR (c = '?' AND comp = 'NSS')
           OR (c = '?' AND comp = 'r-component' AND substr(v, p + 1, 1) = '=') THEN
          RETURN 'invalid URN: the ' || comp || ' at byte ' || p - 1 || ' is empty';
        ELSIF c IN ('/', '?') THEN
          RETURN 'invalid URN: ''' || c || ''' at byte ' || p - 1 || ' cannot start the ' || comp;
        END IF;
      END IF;
      q := p;
      body := CASE comp
        WHEN 'NSS' THEN '^(?:[/A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f][0-9A-Fa-f])*'
        WHEN 'r-component' THEN '^(?:[/A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f][0-9A-Fa-f]|[?](?!=))*'
        ELSE '^(?:[/?A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f][0-9A-Fa-f])*' END;
      p := p + length(substring(substr(v, p) COLLATE "C" from body));
      c := substr(v, p, 1);
      IF c = '%' THEN
        RETURN 'invalid URN: ''%'' at byte ' || p - 1 || ' in the ' || comp || ' must be followed by two hex digits';
      ELSIF c = '' THEN
        RETURN NULL;
      ELSIF c = '#' AND comp <> 'f-component' THEN
        comp := 'f-component';
        p := p + 1;
      ELSIF c = '?' AND comp = 'NSS' AND substr(v, p + 1, 1) = '+' THEN
        comp := 'r-component';
        p := p + 2;
      ELSIF c = '?' AND comp IN ('NSS', 'r-component') AND substr(v, p + 1, 1) = '=' THEN
        comp := 'q-component';
        p := p + 2;
      ELSIF c = '?' AND comp = 'NSS' THEN
        RETURN 'invalid URN: ''?'' at byte ' || p - 1 || ' must be followed by ''+'' or ''=''';
      ELSE
        EXIT scan;
      END IF;
    END LOOP;
  END;
  -- White space after a URN rather than in it: what comes before it is a URN when a component
  -- has characters (the f-component may have none).
  IF (p > q OR comp = 'f-component') AND substr(v, p) ~ E'^[\\u0009-\\u000D\\u0020\\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028-\\u2029\\u202F\\u205F\\u3000]+$' THEN
    RETURN 'invalid URN: trailing whitespace at byte ' || p - 1 || ' (a URN has none; trim the input)';
  END IF;
  -- The character as urn_core's messages show it (Rust's char::escape_debug for the
  -- characters a URN check meets).
  RETURN 'invalid URN: ''' || CASE
      WHEN ascii(c) = 0 THEN E'\\0'
      WHEN c = E'\t' THEN E'\\t'
      WHEN c = E'\r' THEN E'\\r'
      WHEN c = E'\n' THEN E'\\n'
      WHEN c = E'\\' THEN E'\\\\'
      WHEN c = '''' THEN E'\\'''
      WHEN c = '"' THEN E'\\"'
      WHEN ascii(c) BETWEEN 1 AND 8 OR ascii(c) BETWEEN 11 AND 12 OR ascii(c) BETWEEN 14 AND 31 OR ascii(c) BETWEEN 127 AND 159 OR ascii(c) = 160 OR ascii(c) = 173 OR ascii(c) BETWEEN 768 AND 879 OR ascii(c) = 5760 OR ascii(c) BETWEEN 8192 AND 8207 OR ascii(c) BETWEEN 8232 AND 8239 OR ascii(c) BETWEEN 8287 AND 8292 OR ascii(c) = 12288 OR ascii(c) = 65279
        THEN E'\\u{' || to_hex(ascii(c)) || '}'
      ELSE c END || ''' at byte ' || p - 1 || ' is not allowed in the ' || comp;
END
$fn$;
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
CREATE OR REPLACE FUNCTION urn_key_index(k urn_key) RETURNS pg_catalog.text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN pg_catalog.octet_length(k) <= 2048 THEN k::pg_catalog.text
              ELSE 'sha256:' || pg_catalog.encode(pg_catalog.sha256(k::pg_catalog.bytea), 'hex') END;

-- urn_key_index(text): the same for the text key column of the table pattern, whose key is
-- generated by the key function and so canonical without the urn_key domain's check (which
-- would run at each use of k in the inlined body). `urn_key_index(urn_key)` on a text column
-- picks this one; on an urn_key column (revision 2's tables), the one above.
CREATE OR REPLACE FUNCTION urn_key_index(k pg_catalog.text) RETURNS pg_catalog.text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN pg_catalog.octet_length(k) <= 2048 THEN k
              ELSE 'sha256:' || pg_catalog.encode(pg_catalog.sha256(k::pg_catalog.bytea), 'hex') END;

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
CREATE OR REPLACE FUNCTION urn_key_v1(u urn) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
  nid text;
  nss text;
  k   text;  -- the NSS of the key, before its %XX are upper-cased
  d   text;
  p   int;
  parts text[];  -- k split at its '%'s
BEGIN
  IF strpos(u, '%') = 0 AND strpos(u, '?') = 0 AND strpos(u, '#') = 0
     AND lower(u COLLATE "C") = u AND left(u, 9) NOT IN ('urn:isbn:', 'urn:issn:') THEN
    RETURN u;
  END IF;
  nid := lower(split_part(u, ':', 2) COLLATE "C");
  -- The NSS ends at the first '?' or '#', which it cannot contain.
  nss := CASE WHEN strpos(u, '?') = 0 AND strpos(u, '#') = 0
           THEN substr(u, length(nid) + 6)
           ELSE split_part(split_part(substr(u, length(nid) + 6), '?', 1), '#', 1) END;
  -- The lengths of the NIDs with a rule: one test sends the others to the generic key.
  k := CASE WHEN length(nid) NOT IN (3, 4) THEN nss ELSE CASE nid
    WHEN 'uuid' THEN CASE
      WHEN nss = lower(nss COLLATE "C") THEN nss
      WHEN length(nss) = 36 AND substr(nss, 9, 1) = '-' AND substr(nss, 14, 1) = '-' AND substr(nss, 19, 1) = '-' AND substr(nss, 24, 1) = '-'
           AND nss COLLATE "C" ~ '^[0-9A-Fa-f]+-[0-9A-Fa-f]+-[0-9A-Fa-f]+-[0-9A-Fa-f]+-[0-9A-Fa-f]+$'
        THEN lower(nss COLLATE "C")
      ELSE nss END
    WHEN 'isbn' THEN CASE WHEN strpos(nss, '-') = 0 AND strpos(nss, 'x') = 0 THEN nss END
    WHEN 'issn' THEN CASE WHEN length(nss) = 9 AND strpos(nss, 'x') = 0 THEN nss END
    WHEN 'ietf' THEN CASE
      WHEN nss = lower(nss COLLATE "C") THEN nss
      WHEN nss COLLATE "C" ~ '^(?:(?:(?:[Rr][Ff][Cc]|[Ff][Yy][Ii]|[Ss][Tt][Dd]|[Bb][Cc][Pp]):[0-9]+|(?:[Ii][Dd]|[Mm][Tt][Gg]):[A-Za-z0-9-]+)$)'
        THEN lower(nss COLLATE "C")
      ELSE nss END
    WHEN 'nbn' THEN CASE
      WHEN left(nss, strpos(nss, '-')) = lower(left(nss, strpos(nss, '-')) COLLATE "C") THEN nss
      WHEN nss COLLATE "C" ~ '^(?:[A-Za-z][A-Za-z](?::[A-Za-z0-9]+)*-[^/])'
        THEN lower(left(nss, strpos(nss, '-')) COLLATE "C") || substr(nss, strpos(nss, '-') + 1)
      ELSE nss END
    WHEN 'lex' THEN CASE
      WHEN nss = lower(nss COLLATE "C") THEN nss
      WHEN nss COLLATE "C" ~ '^(?:[A-Za-z][A-Za-z0-9.-]*:.)'
        THEN lower(nss COLLATE "C")
      ELSE nss END
    WHEN 'mpeg' THEN CASE
      WHEN left(nss, strpos(nss, ':')) = lower(left(nss, strpos(nss, ':')) COLLATE "C") THEN nss
      WHEN nss COLLATE "C" ~ '^(?:[A-Za-z0-9.-]+:)'
        THEN lower(left(nss, strpos(nss, ':')) COLLATE "C") || substr(nss, strpos(nss, ':') + 1)
      ELSE nss END
    ELSE nss END END;
  -- The common case: no %XX to upper-case.
  IF strpos(k, '%') = 0 THEN
    RETURN 'urn:' || nid || ':' || k;
  END IF;
  IF k IS NULL THEN
    -- A check-digit identifier whose key may differ from it. Valid (hyphens where allowed,
    -- X only as the last character where allowed, the check right): the key is its
    -- characters, X upper case; otherwise the generic key.
    d := upper(replace(nss, '-', '') COLLATE "C");
    k := CASE nid
      WHEN 'isbn' THEN CASE
        WHEN left(nss, 1) = '-' OR right(nss, 1) = '-' OR strpos(nss, '--') > 0
             OR length(nss) - length(d) > 4
          THEN nss
        WHEN length(d) = 13 AND d COLLATE "C" ~ '^(?:978|979)[0-9]*$'
             AND (((('x' || d)::bit(52)::bigint
                    & x'0F0F0F0F0F0F0F'::bigint) % 255)
                   + 3
                     * (((('x' || d)::bit(52)::bigint
                          >> 4) & x'0F0F0F0F0F0F0F'::bigint) % 255))
                  % 10 = 0
          THEN d
        WHEN length(d) = 10 AND d COLLATE "C" ~ '^[0-9]*[0-9X]$'
             AND (10 * ascii(substr(d, 1, 1)) + 9 * ascii(substr(d, 2, 1))
                  + 8 * ascii(substr(d, 3, 1)) + 7 * ascii(substr(d, 4, 1))
                  + 6 * ascii(substr(d, 5, 1)) + 5 * ascii(substr(d, 6, 1))
                  + 4 * ascii(substr(d, 7, 1)) + 3 * ascii(substr(d, 8, 1))
                  + 2 * ascii(substr(d, 9, 1)) + ascii(substr(d, 10, 1))
                  - 55 * 48 - CASE WHEN right(d, 1) = 'X' THEN 30 ELSE 0 END) % 11 = 0
          THEN d
        ELSE nss END
      WHEN 'issn' THEN CASE
        WHEN strpos(nss, '-') NOT IN (0, 5) OR length(nss) - length(d) > 1
          THEN nss
        WHEN length(d) = 8 AND d COLLATE "C" ~ '^[0-9]*[0-9X]$'
             AND (8 * ascii(substr(d, 1, 1)) + 7 * ascii(substr(d, 2, 1))
                  + 6 * ascii(substr(d, 3, 1)) + 5 * ascii(substr(d, 4, 1))
                  + 4 * ascii(substr(d, 5, 1)) + 3 * ascii(substr(d, 6, 1))
                  + 2 * ascii(substr(d, 7, 1)) + ascii(substr(d, 8, 1))
                  - 36 * 48 - CASE WHEN right(d, 1) = 'X' THEN 30 ELSE 0 END) % 11 = 0
          THEN left(d, 4) || '-' || substr(d, 5)
        ELSE nss END
      ELSE nss END;
    IF strpos(k, '%') = 0 THEN
      RETURN 'urn:' || nid || ':' || k;
    END IF;
  END IF;
  -- RFC 8141 section 3: upper-case the two hex digits after every '%' (never decode).
  p := strpos(k, '%');
  -- One %XX (most such names): no loop.
  IF strpos(substr(k, p + 3), '%') = 0 THEN
    RETURN 'urn:' || nid || ':'
      || overlay(k PLACING upper(substr(k, p + 1, 2) COLLATE "C") FROM p + 1 FOR 2);
  END IF;
  -- More: split at the '%'s (each piece but the first starts with its two hex digits) and
  -- join again, one pass over the name however many there are (revision 3 rewrote the whole
  -- name per %XX: 22 s for 64 KiB of them).
  parts := string_to_array(k, '%');
  FOR i IN 2..array_length(parts, 1) LOOP
    parts[i] := upper(left(parts[i], 2) COLLATE "C") || substr(parts[i], 3);
  END LOOP;
  RETURN 'urn:' || nid || ':' || array_to_string(parts, '%');
END
$fn$;
CREATE OR REPLACE FUNCTION urn_key_v2(u urn) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
  nid text;
  nss text;
  k   text;  -- the NSS of the key, before its %XX are upper-cased
  d   text;
  p   int;
  parts text[];  -- k split at its '%'s
BEGIN
  IF strpos(u, '%') = 0 AND strpos(u, '?') = 0 AND strpos(u, '#') = 0
     AND lower(u COLLATE "C") = u AND left(u, 8) NOT IN ('urn:doi:', 'urn:lei:') AND left(u, 9) NOT IN ('urn:isbn:', 'urn:issn:') THEN
    RETURN u;
  END IF;
  nid := lower(split_part(u, ':', 2) COLLATE "C");
  -- The NSS ends at the first '?' or '#', which it cannot contain.
  nss := CASE WHEN strpos(u, '?') = 0 AND strpos(u, '#') = 0
           THEN substr(u, length(nid) + 6)
           ELSE split_part(split_part(substr(u, length(nid) + 6), '?', 1), '#', 1) END;
  -- The lengths of the NIDs with a rule: one test sends the others to the generic key.
  k := CASE WHEN length(nid) NOT IN (3, 4) THEN nss ELSE CASE nid
    WHEN 'uuid' THEN CASE
      WHEN nss = lower(nss COLLATE "C") THEN nss
      WHEN length(nss) = 36 AND substr(nss, 9, 1) = '-' AND substr(nss, 14, 1) = '-' AND substr(nss, 19, 1) = '-' AND substr(nss, 24, 1) = '-'
           AND nss COLLATE "C" ~ '^[0-9A-Fa-f]+-[0-9A-Fa-f]+-[0-9A-Fa-f]+-[0-9A-Fa-f]+-[0-9A-Fa-f]+$'
        THEN lower(nss COLLATE "C")
      ELSE nss END
    WHEN 'isbn' THEN CASE WHEN strpos(nss, '-') = 0 AND strpos(nss, 'x') = 0 THEN nss END
    WHEN 'issn' THEN CASE WHEN length(nss) = 9 AND strpos(nss, 'x') = 0 THEN nss END
    WHEN 'ietf' THEN CASE
      WHEN nss = lower(nss COLLATE "C") THEN nss
      WHEN nss COLLATE "C" ~ '^(?:(?:(?:[Rr][Ff][Cc]|[Ff][Yy][Ii]|[Ss][Tt][Dd]|[Bb][Cc][Pp]):[0-9]+|(?:[Ii][Dd]|[Mm][Tt][Gg]):[A-Za-z0-9-]+)$)'
        THEN lower(nss COLLATE "C")
      ELSE nss END
    WHEN 'nbn' THEN CASE
      WHEN left(nss, strpos(nss, '-')) = lower(left(nss, strpos(nss, '-')) COLLATE "C") THEN nss
      WHEN nss COLLATE "C" ~ '^(?:[A-Za-z][A-Za-z](?::[A-Za-z0-9]+)*-[^/])'
        THEN lower(left(nss, strpos(nss, '-')) COLLATE "C") || substr(nss, strpos(nss, '-') + 1)
      ELSE nss END
    WHEN 'lex' THEN CASE
      WHEN nss = lower(nss COLLATE "C") THEN nss
      WHEN nss COLLATE "C" ~ '^(?:[A-Za-z][A-Za-z0-9.-]*(?:;(?:[A-Za-z0-9]|%[0-9A-Fa-f]{2})(?:[A-Za-z0-9.]|%[0-9A-Fa-f]{2})*)*:.)'
        THEN lower(nss COLLATE "C")
      ELSE nss END
    WHEN 'mpeg' THEN CASE
      WHEN left(nss, strpos(nss, ':')) = lower(left(nss, strpos(nss, ':')) COLLATE "C") THEN nss
      WHEN nss COLLATE "C" ~ '^(?:[A-Za-z0-9._-]+:)'
        THEN lower(left(nss, strpos(nss, ':')) COLLATE "C") || substr(nss, strpos(nss, ':') + 1)
      ELSE nss END
    WHEN 'doi' THEN CASE
      WHEN nss COLLATE "C" ~ '^(?:(10([.][0-9]+)+|([0-9]|[02-9][0-9]|1[1-9]|[0-9][0-9][0-9]+)([.][0-9]+)*)[/:].)'
        THEN lower(substring(nss COLLATE "C" from '^[^/:]*')) || '/'
             || replace(lower(substr(nss, length(substring(nss COLLATE "C" from '^[^/:]*')) + 2) COLLATE "C"), '%2f', '/')
      ELSE nss END
    WHEN 'lei' THEN CASE
      WHEN nss COLLATE "C" ~ '^(?:[A-Za-z0-9]{18}[0-9]{2}$)'
           AND (replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(upper(nss COLLATE "C"), 'A', '10'), 'B', '11'), 'C', '12'), 'D', '13'), 'E', '14'), 'F', '15'), 'G', '16'), 'H', '17'), 'I', '18'), 'J', '19'), 'K', '20'), 'L', '21'), 'M', '22'), 'N', '23'), 'O', '24'), 'P', '25'), 'Q', '26'), 'R', '27'), 'S', '28'), 'T', '29'), 'U', '30'), 'V', '31'), 'W', '32'), 'X', '33'), 'Y', '34'), 'Z', '35'))::numeric % 97 = 1
        THEN upper(nss COLLATE "C")
      ELSE nss END
    ELSE nss END END;
  -- The common case: no %XX to upper-case.
  IF strpos(k, '%') = 0 THEN
    RETURN 'urn:' || nid || ':' || k;
  END IF;
  IF k IS NULL THEN
    -- A check-digit identifier whose key may differ from it. Valid (hyphens where allowed,
    -- X only as the last character where allowed, the check right): the key is its
    -- characters, X upper case; otherwise the generic key.
    d := upper(replace(nss, '-', '') COLLATE "C");
    k := CASE nid
      WHEN 'isbn' THEN CASE
        WHEN left(nss, 1) = '-' OR right(nss, 1) = '-' OR strpos(nss, '--') > 0
             OR length(nss) - length(d) > 4
          THEN nss
        WHEN length(d) = 13 AND d COLLATE "C" ~ '^(?:978|979)[0-9]*$'
             AND (((('x' || d)::bit(52)::bigint
                    & x'0F0F0F0F0F0F0F'::bigint) % 255)
                   + 3
                     * (((('x' || d)::bit(52)::bigint
                          >> 4) & x'0F0F0F0F0F0F0F'::bigint) % 255))
                  % 10 = 0
          THEN d
        WHEN length(d) = 10 AND d COLLATE "C" ~ '^[0-9]*[0-9X]$'
             AND (10 * ascii(substr(d, 1, 1)) + 9 * ascii(substr(d, 2, 1))
                  + 8 * ascii(substr(d, 3, 1)) + 7 * ascii(substr(d, 4, 1))
                  + 6 * ascii(substr(d, 5, 1)) + 5 * ascii(substr(d, 6, 1))
                  + 4 * ascii(substr(d, 7, 1)) + 3 * ascii(substr(d, 8, 1))
                  + 2 * ascii(substr(d, 9, 1)) + ascii(substr(d, 10, 1))
                  - 55 * 48 - CASE WHEN right(d, 1) = 'X' THEN 30 ELSE 0 END) % 11 = 0
          THEN d
        ELSE nss END
      WHEN 'issn' THEN CASE
        WHEN strpos(nss, '-') NOT IN (0, 5) OR length(nss) - length(d) > 1
          THEN nss
        WHEN length(d) = 8 AND d COLLATE "C" ~ '^[0-9]*[0-9X]$'
             AND (8 * ascii(substr(d, 1, 1)) + 7 * ascii(substr(d, 2, 1))
                  + 6 * ascii(substr(d, 3, 1)) + 5 * ascii(substr(d, 4, 1))
                  + 4 * ascii(substr(d, 5, 1)) + 3 * ascii(substr(d, 6, 1))
                  + 2 * ascii(substr(d, 7, 1)) + ascii(substr(d, 8, 1))
                  - 36 * 48 - CASE WHEN right(d, 1) = 'X' THEN 30 ELSE 0 END) % 11 = 0
          THEN left(d, 4) || '-' || substr(d, 5)
        ELSE nss END
      ELSE nss END;
    IF strpos(k, '%') = 0 THEN
      RETURN 'urn:' || nid || ':' || k;
    END IF;
  END IF;
  -- RFC 8141 section 3: upper-case the two hex digits after every '%' (never decode).
  p := strpos(k, '%');
  -- One %XX (most such names): no loop.
  IF strpos(substr(k, p + 3), '%') = 0 THEN
    RETURN 'urn:' || nid || ':'
      || overlay(k PLACING upper(substr(k, p + 1, 2) COLLATE "C") FROM p + 1 FOR 2);
  END IF;
  -- More: split at the '%'s (each piece but the first starts with its two hex digits) and
  -- join again, one pass over the name however many there are (revision 3 rewrote the whole
  -- name per %XX: 22 s for 64 KiB of them).
  parts := string_to_array(k, '%');
  FOR i IN 2..array_length(parts, 1) LOOP
    parts[i] := upper(left(parts[i], 2) COLLATE "C") || substr(parts[i], 3);
  END LOOP;
  RETURN 'urn:' || nid || ':' || array_to_string(parts, '%');
END
$fn$;

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
CREATE OR REPLACE FUNCTION urn_key_v1_inline(u urn) RETURNS pg_catalog.text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE pg_catalog.lower(pg_catalog.left(u, 9) COLLATE pg_catalog."C")
    WHEN 'urn:isbn:' THEN CASE
      WHEN pg_catalog.length(u) BETWEEN 22 AND 26 AND pg_catalog.strpos(u, '--') = 0
           AND pg_catalog.right(u, 1) <> '-'
           AND pg_catalog.substr(u, 10) COLLATE pg_catalog."C" ~ '^[0-9][0-9-]*$'
           AND pg_catalog.length(pg_catalog.replace(u, '-', '')) = 22
           AND pg_catalog.substr(pg_catalog.replace(u, '-', ''), 10, 3) IN ('978', '979')
           AND (((('x' || pg_catalog.replace(pg_catalog.substr(u, 10), '-', ''))::pg_catalog.bit(52)::pg_catalog.int8
                  & x'0F0F0F0F0F0F0F'::pg_catalog.int8) % 255::pg_catalog.int8)
                 + 3::pg_catalog.int8
                   * (((('x' || pg_catalog.replace(pg_catalog.substr(u, 10), '-', ''))::pg_catalog.bit(52)::pg_catalog.int8
                        >> 4) & x'0F0F0F0F0F0F0F'::pg_catalog.int8) % 255::pg_catalog.int8))
                % 10::pg_catalog.int8 = 0::pg_catalog.int8
        THEN 'urn:isbn:' || pg_catalog.replace(pg_catalog.substr(u, 10), '-', '')
      ELSE urn_key_v1(u) END
    WHEN 'urn:issn:' THEN urn_key_v1(u)
    ELSE CASE
      WHEN pg_catalog.strpos(u, '%') = 0 THEN CASE
        WHEN pg_catalog.strpos(u, '?') = 0 AND pg_catalog.strpos(u, '#') = 0 THEN CASE
          WHEN pg_catalog.lower(u COLLATE pg_catalog."C") = u::pg_catalog.text THEN u::pg_catalog.text
          WHEN u::pg_catalog.text COLLATE pg_catalog."C" ~ '^[^:]*:[^:]*:[^A-Z]*$'
            THEN pg_catalog.lower(u COLLATE pg_catalog."C")
          WHEN pg_catalog.strpos(pg_catalog.substr(u, 5), ':') NOT IN (4, 5)
            THEN pg_catalog.lower(pg_catalog.left(u, pg_catalog.strpos(pg_catalog.substr(u, 5), ':') + 4)
                                  COLLATE pg_catalog."C")
                 || pg_catalog.substr(u, pg_catalog.strpos(pg_catalog.substr(u, 5), ':') + 5)
          ELSE urn_key_v1(u) END
        WHEN u::pg_catalog.text COLLATE pg_catalog."C" ~ '^[^:]*:[^:]*:[^A-Z?#]*[?#]'
          THEN pg_catalog.split_part(pg_catalog.split_part(pg_catalog.lower(u COLLATE pg_catalog."C"), '?', 1), '#', 1)
        WHEN pg_catalog.strpos(pg_catalog.substr(u, 5), ':') NOT IN (4, 5)
          THEN pg_catalog.lower(pg_catalog.left(u, pg_catalog.strpos(pg_catalog.substr(u, 5), ':') + 4)
                                COLLATE pg_catalog."C")
               || pg_catalog.split_part(pg_catalog.split_part(
                    pg_catalog.substr(u, pg_catalog.strpos(pg_catalog.substr(u, 5), ':') + 5), '?', 1), '#', 1)
        ELSE urn_key_v1(u) END
      WHEN u::pg_catalog.text COLLATE pg_catalog."C"
           ~ '^[^:]*:[^:]*:[^A-Z?#%]*%[0-9A-Fa-f][0-9A-Fa-f][^A-Z?#%]*([?#]|$)'
        THEN pg_catalog.overlay(
               pg_catalog.split_part(pg_catalog.split_part(pg_catalog.lower(u COLLATE pg_catalog."C"), '?', 1), '#', 1),
               pg_catalog.upper(pg_catalog.substr(u, pg_catalog.strpos(u, '%') + 1, 2) COLLATE pg_catalog."C"),
               pg_catalog.strpos(u, '%') + 1, 2)
      ELSE urn_key_v1(u) END END;
CREATE OR REPLACE FUNCTION urn_key_v2_inline(u urn) RETURNS pg_catalog.text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE pg_catalog.lower(pg_catalog.left(u, 8) COLLATE pg_catalog."C")
    WHEN 'urn:doi:' THEN urn_key_v2(u)
    WHEN 'urn:lei:' THEN urn_key_v2(u)
    WHEN 'urn:isbn' THEN CASE
      WHEN pg_catalog.substr(u, 9, 1) = ':' THEN CASE
      WHEN pg_catalog.length(u) BETWEEN 22 AND 26 AND pg_catalog.strpos(u, '--') = 0
           AND pg_catalog.right(u, 1) <> '-'
           AND pg_catalog.substr(u, 10) COLLATE pg_catalog."C" ~ '^[0-9][0-9-]*$'
           AND pg_catalog.length(pg_catalog.replace(u, '-', '')) = 22
           AND pg_catalog.substr(pg_catalog.replace(u, '-', ''), 10, 3) IN ('978', '979')
           AND (((('x' || pg_catalog.replace(pg_catalog.substr(u, 10), '-', ''))::pg_catalog.bit(52)::pg_catalog.int8
                  & x'0F0F0F0F0F0F0F'::pg_catalog.int8) % 255::pg_catalog.int8)
                 + 3::pg_catalog.int8
                   * (((('x' || pg_catalog.replace(pg_catalog.substr(u, 10), '-', ''))::pg_catalog.bit(52)::pg_catalog.int8
                        >> 4) & x'0F0F0F0F0F0F0F'::pg_catalog.int8) % 255::pg_catalog.int8))
                % 10::pg_catalog.int8 = 0::pg_catalog.int8
        THEN 'urn:isbn:' || pg_catalog.replace(pg_catalog.substr(u, 10), '-', '')
      ELSE urn_key_v2(u) END
      ELSE urn_key_v2(u) END
    WHEN 'urn:issn' THEN urn_key_v2(u)
    ELSE CASE
      WHEN pg_catalog.strpos(u, '%') = 0 THEN CASE
        WHEN pg_catalog.strpos(u, '?') = 0 AND pg_catalog.strpos(u, '#') = 0 THEN CASE
          WHEN pg_catalog.lower(u COLLATE pg_catalog."C") = u::pg_catalog.text THEN u::pg_catalog.text
          WHEN u::pg_catalog.text COLLATE pg_catalog."C" ~ '^[^:]*:[^:]*:[^A-Z]*$'
            THEN pg_catalog.lower(u COLLATE pg_catalog."C")
          WHEN pg_catalog.strpos(pg_catalog.substr(u, 5), ':') NOT IN (4, 5)
            THEN pg_catalog.lower(pg_catalog.left(u, pg_catalog.strpos(pg_catalog.substr(u, 5), ':') + 4)
                                  COLLATE pg_catalog."C")
                 || pg_catalog.substr(u, pg_catalog.strpos(pg_catalog.substr(u, 5), ':') + 5)
          ELSE urn_key_v2(u) END
        WHEN u::pg_catalog.text COLLATE pg_catalog."C" ~ '^[^:]*:[^:]*:[^A-Z?#]*[?#]'
          THEN pg_catalog.split_part(pg_catalog.split_part(pg_catalog.lower(u COLLATE pg_catalog."C"), '?', 1), '#', 1)
        WHEN pg_catalog.strpos(pg_catalog.substr(u, 5), ':') NOT IN (4, 5)
          THEN pg_catalog.lower(pg_catalog.left(u, pg_catalog.strpos(pg_catalog.substr(u, 5), ':') + 4)
                                COLLATE pg_catalog."C")
               || pg_catalog.split_part(pg_catalog.split_part(
                    pg_catalog.substr(u, pg_catalog.strpos(pg_catalog.substr(u, 5), ':') + 5), '?', 1), '#', 1)
        ELSE urn_key_v2(u) END
      WHEN u::pg_catalog.text COLLATE pg_catalog."C"
           ~ '^[^:]*:[^:]*:[^A-Z?#%]*%[0-9A-Fa-f][0-9A-Fa-f][^A-Z?#%]*([?#]|$)'
        THEN pg_catalog.overlay(
               pg_catalog.split_part(pg_catalog.split_part(pg_catalog.lower(u COLLATE pg_catalog."C"), '?', 1), '#', 1),
               pg_catalog.upper(pg_catalog.substr(u, pg_catalog.strpos(u, '%') + 1, 2) COLLATE pg_catalog."C"),
               pg_catalog.strpos(u, '%') + 1, 2)
      ELSE urn_key_v2(u) END END;

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
  FOR i IN 2..array_length(parts, 1) LOOP
    parts[i] := upper(left(parts[i], 2) COLLATE "C") || substr(parts[i], 3);
  END LOOP;
  RETURN 'urn:' || nid || ':' || array_to_string(parts, '%');
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
CREATE OR REPLACE FUNCTION urn_key_problem(v pg_catalog.text, k pg_catalog.text)
  RETURNS pg_catalog.text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
  SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
  -- The assigned name ends at the first '?' or '#' (a valid URN is ASCII: chars are bytes).
  n    int := length(split_part(split_part(v, '?', 1), '#', 1));
  same int := 0;                                -- the first `same` characters agree,
  diff int := greatest(length(v), length(k));  -- the first `diff` do not
  mid  int;
BEGIN
  IF n < length(v) THEN
    RETURN 'invalid URN: a URN key has no r-, q- or f-component, but one starts at byte ' || n;
  ELSIF v = k THEN
    RETURN NULL;
  END IF;
  -- The first character that differs, by halving: log2(length) comparisons of prefixes
  -- (revision 3 compared character by character, each substr scanning from the start: 28 s
  -- for a 64 KiB key).
  WHILE diff - same > 1 LOOP
    mid := (same + diff) / 2;
    IF left(v, mid) = left(k, mid) THEN
      same := mid;
    ELSE
      diff := mid;
    END IF;
  END LOOP;
  RETURN 'invalid URN: not a canonical URN key: byte ' || diff - 1 || ' differs from the key';
END
$fn$;

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
      CASE WHEN pg_catalog.octet_length(VALUE) <= 65536
                AND pg_catalog.octet_length(pg_catalog.split_part(VALUE, ':', 2)) BETWEEN 2 AND 32
                AND pg_catalog.substr(VALUE, 5, 1) <> '-'
                AND CASE
                  WHEN pg_catalog.strpos(VALUE, '%') = 0 AND pg_catalog.strpos(VALUE, '?') = 0 THEN CASE
                    WHEN pg_catalog.strpos(VALUE, '#') = 0
                      THEN VALUE COLLATE pg_catalog."C" ~ '^[Uu][Rr][Nn]:[A-Za-z0-9-]*[A-Za-z0-9]:[A-Za-z0-9._~!$&''()*+,;=:@-][A-Za-z0-9._~!$&''()*+,;=:@/-]*$'
                    ELSE VALUE COLLATE pg_catalog."C" ~ '^[Uu][Rr][Nn]:[A-Za-z0-9-]*[A-Za-z0-9]:[A-Za-z0-9._~!$&''()*+,;=:@-][A-Za-z0-9._~!$&''()*+,;=:@/-]*(#[A-Za-z0-9._~!$&''()*+,;=:@/?-]*)?$'
                    END
                  WHEN pg_catalog.strpos(VALUE, '?+') = 0
                    THEN VALUE COLLATE pg_catalog."C" ~ '^[Uu][Rr][Nn]:[A-Za-z0-9-]*[A-Za-z0-9]:([A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f][0-9A-Fa-f])([A-Za-z0-9._~!$&''()*+,;=:@/-]|%[0-9A-Fa-f][0-9A-Fa-f])*([?]=([A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f][0-9A-Fa-f])([A-Za-z0-9._~!$&''()*+,;=:@/?-]|%[0-9A-Fa-f][0-9A-Fa-f])*)?(#([A-Za-z0-9._~!$&''()*+,;=:@/?-]|%[0-9A-Fa-f][0-9A-Fa-f])*)?$'
                  ELSE VALUE COLLATE pg_catalog."C" ~ '^[Uu][Rr][Nn]:[A-Za-z0-9-]*[A-Za-z0-9]:([A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f][0-9A-Fa-f])([A-Za-z0-9._~!$&''()*+,;=:@/-]|%[0-9A-Fa-f][0-9A-Fa-f])*([?][+]([A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f][0-9A-Fa-f])([A-Za-z0-9._~!$&''()*+,;=:@/-]|%[0-9A-Fa-f][0-9A-Fa-f]|[?]+([A-Za-z0-9._~!$&''()*+,;:@/-]|%[0-9A-Fa-f][0-9A-Fa-f]))*[?]*)?([?]=([A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f][0-9A-Fa-f])([A-Za-z0-9._~!$&''()*+,;=:@/?-]|%[0-9A-Fa-f][0-9A-Fa-f])*)?(#([A-Za-z0-9._~!$&''()*+,;=:@/?-]|%[0-9A-Fa-f][0-9A-Fa-f])*)?$'
                  END
           THEN true
           ELSE urn_domain_error(VALUE) END
  $check$;
  install_key_check := $check$
      CASE WHEN pg_catalog.octet_length(VALUE) <= 65536
                AND pg_catalog.octet_length(pg_catalog.split_part(VALUE, ':', 2)) <= 32
                AND CASE WHEN pg_catalog.strpos(VALUE, '%') = 0
                  THEN VALUE COLLATE pg_catalog."C" ~ '^urn:[a-z0-9][a-z0-9-]*[a-z0-9]:[A-Za-z0-9._~!$&''()*+,;=:@-][A-Za-z0-9._~!$&''()*+,;=:@/-]*$'
                  ELSE VALUE COLLATE pg_catalog."C" ~ '^urn:[a-z0-9][a-z0-9-]*[a-z0-9]:([A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-F][0-9A-F])([A-Za-z0-9._~!$&''()*+,;=:@/-]|%[0-9A-F][0-9A-F])*$'
                  END
           THEN true
           ELSE urn_key_domain_error(VALUE) END
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
