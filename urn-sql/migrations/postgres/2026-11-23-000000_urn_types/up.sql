-- urn-sql: URN domains and functions for PostgreSQL (>= 14). Idempotent: running it again is a
-- no-op, and running it over an earlier version upgrades the domains' constraints in place.
-- `urn sql --dialect postgres` wraps it in BEGIN/COMMIT, so `psql -v ON_ERROR_STOP=1` either
-- installs everything or nothing; migration tools (diesel, sqlx) run it in their own transaction.
--
-- * DOMAIN urn      RFC 8141 syntax, one named CHECK per rule family, so an error names the
--                   rule: urn_length (at most 65536 bytes, urn_core::DEFAULT_MAX_LEN),
--                   urn_scheme, urn_nid, urn_characters, urn_percent_encoding, urn_components.
--                   Together they accept exactly what urn_core's parser accepts (tested).
-- * DOMAIN urn_key  RFC 8141 section 3 canonical form (urn_core::patterns::URN_KEY), at most
--                   65536 bytes.
-- * urn_check(text) NULL for a valid URN, otherwise the parser's message, e.g.
--                   invalid URN: '%' at byte 13 in the NSS must be followed by two hex digits
-- * urn_key_v1(urn) exactly urn_core's `Urn::key()` under `KeyRules::V1`: RFC 8141 section 3
--                   plus the namespace rules of uuid, isbn, issn, ietf, nbn, lex and mpeg.
-- * urn_valid(text) urn_check(v) IS NULL.
-- * urn_nid(urn), urn_nss(urn)
--                   the NID and the NSS as written; urn_rfc8141_key(urn) the RFC 8141 section 3
--                   key alone (`Urn::rfc8141_key()`).
-- * urn_key_index(urn_key)
--                   what the UNIQUE index stores: the key itself up to 2048 bytes, beyond that
--                   'sha256:' and the hex SHA-256 of the key. A btree entry holds at most 2704
--                   bytes, so a UNIQUE index on a longer incompressible key fails; this way
--                   every URN the domain accepts can be stored and deduplicated.
--
-- Why it looks like this:
-- * The function is not called `urn_key`: PostgreSQL parses a one-argument call named like a
--   type as a cast to that type (docs section 10.3, step 2), so `urn_key('URN:X:Y')` would be
--   a cast to the domain. It carries its rule version because stored generated columns are not
--   recomputed when a function is replaced: new rules come as urn_key_v2 plus a re-key
--   migration (see the urn-sql README).
-- * Every case mapping and regex match is pinned to COLLATE "C": under a Turkish ICU default
--   collation lower('I') is a dotless i.
-- * PostgreSQL checks a domain's constraints in the order of their names and reports the first
--   that fails. Each constraint after the NID holds vacuously when the scheme or the NID's end
--   is missing, so the name reported is a rule that is broken; urn_check() gives the parser's
--   exact message and byte.
-- * The NID's length (2 to 32) is checked with strpos, and no regex uses a bounded repetition
--   such as '{0,30}': PostgreSQL's regex engine expands it into thirty states (measured: 35%
--   slower per check).
-- * Where the urn_pg extension (crate urn-pg) owns the domains, it provides every object
--   here natively, with the same results; this script then changes nothing (a NOTICE says so),
--   so applications can run it at start-up on either kind of database.
-- * No extension needed: the domains are plain SQL, the functions SQL and PL/pgSQL (installed in every
--   database by default); IMMUTABLE, PARALLEL SAFE.
--
-- Table pattern (see urn_sql::postgres::TABLE_PATTERN):
--   urn     urn     NOT NULL,
--   urn_key urn_key GENERATED ALWAYS AS (urn_key_v1(urn)) STORED NOT NULL
--   CREATE UNIQUE INDEX items_urn_key_unique ON items (urn_key_index(urn_key));

-- Serialises concurrent installers.
SELECT pg_advisory_xact_lock(8141);

DO $install$
DECLARE
  con record;   -- named apart from the parameters of the functions created below
BEGIN
  IF EXISTS (SELECT FROM pg_depend WHERE classid = 'pg_type'::regclass
             AND objid = to_regtype('urn') AND deptype = 'e') THEN
    RAISE NOTICE 'urn-sql: the urn_pg extension provides the URN domains and functions here';
    RETURN;
  END IF;
  IF to_regtype('urn') IS NULL THEN
    CREATE DOMAIN urn AS text;
  END IF;
  IF to_regtype('urn_key') IS NULL THEN
    CREATE DOMAIN urn_key AS text;
  END IF;
  -- The comment records which version of the constraints a domain has; an older version's
  -- constraints are replaced (ADD CONSTRAINT re-checks every stored value).
  IF obj_description(to_regtype('urn'), 'pg_type') IS DISTINCT FROM 'urn-sql 2: RFC 8141 URN, at most 65536 bytes' THEN
    FOR con IN SELECT conname FROM pg_constraint WHERE contypid = to_regtype('urn') LOOP
      EXECUTE format('ALTER DOMAIN urn DROP CONSTRAINT %I', con.conname);
    END LOOP;
    ALTER DOMAIN urn ADD CONSTRAINT urn_length CHECK (octet_length(VALUE) <= 65536);
    ALTER DOMAIN urn ADD CONSTRAINT urn_scheme CHECK (lower(left(VALUE, 4) COLLATE "C") = 'urn:');
    ALTER DOMAIN urn ADD CONSTRAINT urn_nid CHECK (
      lower(left(VALUE, 4) COLLATE "C") <> 'urn:'
      OR (strpos(substr(VALUE, 5), ':') BETWEEN 3 AND 33
          AND substr(VALUE, 5) COLLATE "C" ~ '^[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9]:'));
    -- After the NID: the characters of the NSS and components, '#' at most once.
    ALTER DOMAIN urn ADD CONSTRAINT urn_characters CHECK (
      lower(left(VALUE, 4) COLLATE "C") <> 'urn:' OR strpos(substr(VALUE, 5), ':') = 0
      OR substr(VALUE, strpos(substr(VALUE, 5), ':') + 5) COLLATE "C"
         ~ '^[/?%A-Za-z0-9._~!$&''()*+,;=:@-]*(#[/?%A-Za-z0-9._~!$&''()*+,;=:@-]*)?$');
    ALTER DOMAIN urn ADD CONSTRAINT urn_percent_encoding CHECK (
      lower(left(VALUE, 4) COLLATE "C") <> 'urn:' OR strpos(substr(VALUE, 5), ':') = 0
      OR substr(VALUE, strpos(substr(VALUE, 5), ':') + 5) COLLATE "C"
         !~ '%([^0-9A-Fa-f]|.[^0-9A-Fa-f]|.?$)');
    -- The structure: a non-empty NSS not starting with '/', then optional non-empty ?+r and ?=q
    -- (neither starting with '/' or '?'; r ends at "?="), then optional #f. Any character but
    -- the delimiters counts here; urn_characters judges the characters.
    ALTER DOMAIN urn ADD CONSTRAINT urn_components CHECK (
      lower(left(VALUE, 4) COLLATE "C") <> 'urn:' OR strpos(substr(VALUE, 5), ':') = 0
      OR substr(VALUE, strpos(substr(VALUE, 5), ':') + 5) COLLATE "C"
         ~ '^[^?#/][^?#]*(\?\+[^?#/]([^?#]|\?(?!=))*)?(\?=[^?#/][^#]*)?(#.*)?$');
    COMMENT ON DOMAIN urn IS 'urn-sql 2: RFC 8141 URN, at most 65536 bytes';
  END IF;
  IF obj_description(to_regtype('urn_key'), 'pg_type') IS DISTINCT FROM 'urn-sql 2: canonical URN key, at most 65536 bytes' THEN
    FOR con IN SELECT conname FROM pg_constraint WHERE contypid = to_regtype('urn_key') LOOP
      EXECUTE format('ALTER DOMAIN urn_key DROP CONSTRAINT %I', con.conname);
    END LOOP;
    ALTER DOMAIN urn_key ADD CONSTRAINT urn_key_length CHECK (octet_length(VALUE) <= 65536);
    ALTER DOMAIN urn_key ADD CONSTRAINT urn_key_canonical CHECK (
      strpos(substr(VALUE, 5), ':') BETWEEN 3 AND 33
      AND VALUE COLLATE "C" ~ '^urn:[a-z0-9][a-z0-9-]*[a-z0-9]:([A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-F]{2})([A-Za-z0-9._~!$&''()*+,;=:@/-]|%[0-9A-F]{2})*$');
    COMMENT ON DOMAIN urn_key IS 'urn-sql 2: canonical URN key, at most 65536 bytes';
  END IF;

-- The functions. PL/pgSQL runs these CREATE statements as they are; they are in this block so
-- that the check above skips them too where urn_pg owns the objects (CREATE OR REPLACE would
-- swap its native code for this SQL).

-- urn_key_index(urn_key): the value the UNIQUE index of a keyed table stores. Keys of at most
-- 2048 bytes are stored as they are (readable, and as fast as a plain text index); a longer
-- key as 'sha256:' || its SHA-256 in hex, which fits any btree. A key starts with "urn:", so a
-- key and a digest never collide; two long keys collide only if SHA-256 does. k::bytea is the
-- key's bytes: a key is ASCII without '\', the one character the text-to-bytea cast reads
-- specially. Every call in the body is IMMUTABLE and the function is not STRICT, so PostgreSQL
-- inlines it into the index expression; textsend() or convert_to() (both STABLE) would stop
-- that and cost ~2.5 us per inserted row.
CREATE OR REPLACE FUNCTION urn_key_index(k urn_key) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN octet_length(k) <= 2048 THEN k::text
              ELSE 'sha256:' || encode(sha256(k::bytea), 'hex') END;

-- urn_check_char(c): a character as urn_core's messages show it (Rust's char::escape_debug for
-- the characters a URN check meets).
CREATE OR REPLACE FUNCTION urn_check_char(c text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN CASE
    WHEN c = E'\t' THEN '\t' WHEN c = E'\r' THEN '\r' WHEN c = E'\n' THEN '\n'
    WHEN c = '\' THEN '\\' WHEN c = '''' THEN '\''' WHEN c = '"' THEN '\"'
    WHEN ascii(c) < 32 OR ascii(c) BETWEEN 127 AND 159 OR ascii(c) = 173
      OR ascii(c) BETWEEN 768 AND 879 OR ascii(c) BETWEEN 8203 AND 8207
      OR ascii(c) BETWEEN 8232 AND 8238 OR ascii(c) BETWEEN 8288 AND 8292 OR ascii(c) = 65279
      OR ascii(c) IN (160, 5760, 8239, 8287, 12288) OR ascii(c) BETWEEN 8192 AND 8202
      THEN '\u{' || to_hex(ascii(c)) || '}'
    ELSE c END;

-- urn_check(text): NULL when the text is a valid RFC 8141 URN, otherwise urn_core's message
-- for it (the same rule and byte offset as `Urn::parse`), e.g.
--   SELECT urn_check('urn:example:a%zz');
--   invalid URN: '%' at byte 13 in the NSS must be followed by two hex digits
-- A port of the parser's single pass in which regexes consume each component's longest valid
-- prefix. Every character before an error is ASCII, so character position p is byte p - 1.
CREATE OR REPLACE FUNCTION urn_check(v text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $fn$
DECLARE
  nid  text;
  comp text;    -- the component being scanned, named as in the messages
  body text;    -- the regex of that component's characters
  p    int;     -- the character position being looked at (1-based)
  c    text;
BEGIN
  IF octet_length(v) > 65536 THEN
    RETURN 'invalid URN: longer than the maximum of 65536 bytes (byte 65536)';
  END IF;
  FOR i IN 1..4 LOOP
    c := substr(v, i, 1);
    IF c = '' OR lower(c COLLATE "C") <> substr('urn:', i, 1) THEN
      RETURN format('invalid URN: expected ''urn:'' at byte %s', i - 1);
    END IF;
  END LOOP;

  nid := substring(substr(v, 5) COLLATE "C" from '^[A-Za-z0-9-]*');
  p := 5 + length(nid);
  c := substr(v, p, 1);
  IF length(nid) > 32 THEN
    RETURN format('invalid URN: NID of %s characters at byte 4: it must have 2 to 32', length(nid));
  ELSIF c = '' THEN
    RETURN format('invalid URN: the NID must be followed by '':'' (byte %s)', p - 1);
  ELSIF c <> ':' THEN
    RETURN format('invalid URN: ''%s'' at byte %s is not allowed in the NID', urn_check_char(c), p - 1);
  ELSIF left(nid, 1) = '-' THEN
    RETURN 'invalid URN: ''-'' at byte 4 cannot start the NID';
  ELSIF length(nid) < 2 THEN
    RETURN format('invalid URN: NID of %s character%s at byte 4: it must have 2 to 32',
                  length(nid), CASE WHEN length(nid) = 1 THEN '' ELSE 's' END);
  ELSIF right(nid, 1) = '-' THEN
    RETURN format('invalid URN: ''-'' at byte %s cannot end the NID', p - 2);
  END IF;
  p := p + 1;

  -- The NSS, then each component that follows: ?+r, ?=q, #f.
  comp := 'NSS';
  LOOP
    c := substr(v, p, 1);
    IF comp <> 'f-component' THEN
      IF c = '' OR c = '#' OR (c = '?' AND comp = 'NSS')
         OR (c = '?' AND comp = 'r-component' AND substr(v, p + 1, 1) = '=') THEN
        RETURN format('invalid URN: the %s at byte %s is empty', comp, p - 1);
      ELSIF c IN ('/', '?') THEN
        RETURN format('invalid URN: ''%s'' at byte %s cannot start the %s', c, p - 1, comp);
      END IF;
    END IF;
    body := CASE comp
      WHEN 'NSS' THEN '^(?:[/A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f][0-9A-Fa-f])*'
      WHEN 'r-component' THEN '^(?:[/A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f][0-9A-Fa-f]|\?(?!=))*'
      ELSE '^(?:[/?A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f][0-9A-Fa-f])*' END;
    p := p + length(substring(substr(v, p) COLLATE "C" from body));
    c := substr(v, p, 1);
    IF c = '%' THEN
      RETURN format('invalid URN: ''%%'' at byte %s in the %s must be followed by two hex digits',
                    p - 1, comp);
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
      RETURN format('invalid URN: ''?'' at byte %s must be followed by ''+'' or ''=''', p - 1);
    ELSE
      RETURN format('invalid URN: ''%s'' at byte %s is not allowed in the %s',
                    urn_check_char(c), p - 1, comp);
    END IF;
  END LOOP;
END
$fn$;

-- urn_key_v1(urn): the canonical key, equal to urn_core's `Urn::key()` (KeyRules::V1):
-- lower-case "urn" and NID, the namespace's rule where the NSS is valid for that namespace
-- (uuid, isbn, issn, ietf, nbn, lex, mpeg), upper-case hex in every %XX, no r-, q- or
-- f-component. The parameter is the `urn` domain, so text arguments are checked (garbage
-- raises the domain's check_violation instead of yielding a wrong key).
--
-- PL/pgSQL rather than LANGUAGE sql: a generated column calls the function once per row, and a
-- SQL function that cannot be inlined starts an executor per call (measured: about 50 us per
-- row, 13x the cost of a plain insert); PL/pgSQL evaluates its simple expressions directly.
CREATE OR REPLACE FUNCTION urn_key_v1(u urn) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $fn$
DECLARE
  nid  text := lower(split_part(u, ':', 2) COLLATE "C");
  -- The NSS ends at the first '?' or '#', which it cannot contain.
  nss  text := split_part(split_part(substr(u, length(nid) + 6), '?', 1), '#', 1);
  head text := '';   -- the namespace-specific part, already final
  tail text;         -- the rest, which still needs upper-case %XX hex
  d    text;
  out  text;
  sum  int;
  p    int;
BEGIN
  -- Every PL/pgSQL statement costs, so the commonest case (no namespace rule, no %XX) returns
  -- at once, and one test sends every other namespace straight to the generic rule. Regexes
  -- use '+' with length and position checks rather than '{n}': a bounded repetition is
  -- several times slower in PostgreSQL's regex engine (a UUID check: 2.6 us against 0.9 us).
  IF nid NOT IN ('uuid', 'isbn', 'issn', 'ietf', 'nbn', 'lex', 'mpeg') THEN
    IF strpos(nss, '%') = 0 THEN
      RETURN 'urn:' || nid || ':' || nss;
    END IF;
    tail := nss;
  ELSE
    tail := nss;
    IF nid = 'uuid' THEN
      IF length(nss) = 36 AND substr(nss, 9, 1) = '-' AND substr(nss, 14, 1) = '-'
         AND substr(nss, 19, 1) = '-' AND substr(nss, 24, 1) = '-'
         AND nss COLLATE "C" ~ '^[0-9A-Fa-f]+-[0-9A-Fa-f]+-[0-9A-Fa-f]+-[0-9A-Fa-f]+-[0-9A-Fa-f]+$' THEN
        head := lower(nss COLLATE "C");
        tail := '';
      END IF;
    ELSIF nid = 'isbn' THEN
      -- Digits with at most four single hyphens between them, X only as an ISBN-10's last
      -- character, and a matching check digit. The key drops the hyphens.
      d := upper(replace(nss, '-', '') COLLATE "C");
      IF nss COLLATE "C" ~ '^[0-9]+(-[0-9]+)*(-?[Xx])?$' AND length(nss) - length(d) <= 4 THEN
        IF length(d) = 10 AND d COLLATE "C" ~ '^[0-9]+[0-9X]$' THEN
          sum := 0;
          FOR i IN 1..10 LOOP
            sum := sum + (11 - i) * CASE WHEN substr(d, i, 1) = 'X' THEN 10 ELSE substr(d, i, 1)::int END;
          END LOOP;
          IF sum % 11 = 0 THEN head := d; tail := ''; END IF;
        ELSIF length(d) = 13 AND d COLLATE "C" ~ '^97[89][0-9]+$' THEN
          sum := 0;
          FOR i IN 1..13 LOOP
            sum := sum + CASE WHEN i % 2 = 1 THEN 1 ELSE 3 END * substr(d, i, 1)::int;
          END LOOP;
          IF sum % 10 = 0 THEN head := d; tail := ''; END IF;
        END IF;
      END IF;
    ELSIF nid = 'issn' THEN
      -- NNNN-NNNC or NNNNNNNC with a matching check character; the key is NNNN-NNNC, X upper.
      d := upper(replace(nss, '-', '') COLLATE "C");
      IF length(d) = 8 AND (length(nss) = 8 OR substr(nss, 5, 1) = '-')
         AND nss COLLATE "C" ~ '^[0-9]+-?[0-9]+[0-9Xx]$' THEN
        sum := 0;
        FOR i IN 1..8 LOOP
          sum := sum + (9 - i) * CASE WHEN substr(d, i, 1) = 'X' THEN 10 ELSE substr(d, i, 1)::int END;
        END LOOP;
        IF sum % 11 = 0 THEN head := left(d, 4) || '-' || right(d, 4); tail := ''; END IF;
      END IF;
    ELSIF nid = 'ietf' THEN
      -- The RFC 2648 forms are case-insensitive; params: registries keep their case.
      d := lower(split_part(nss, ':', 1) COLLATE "C");
      IF (d IN ('rfc', 'fyi', 'std', 'bcp') AND nss COLLATE "C" ~ '^[A-Za-z]+:[0-9]+$')
         OR (d IN ('id', 'mtg') AND nss COLLATE "C" ~ '^[A-Za-z]+:[A-Za-z0-9-]+$') THEN
        head := lower(nss COLLATE "C");
        tail := '';
      END IF;
    ELSIF nid = 'nbn' THEN
      -- The country code and sub-namespaces before the first '-' are case-insensitive.
      IF nss COLLATE "C" ~ '^[A-Za-z][A-Za-z](:[A-Za-z0-9]+)*-[^/]' THEN
        p := strpos(nss, '-');
        head := lower(left(nss, p) COLLATE "C");
        tail := substr(nss, p + 1);
      END IF;
    ELSIF nid = 'lex' THEN
      -- A lex name is case-insensitive as a whole.
      IF nss COLLATE "C" ~ '^[A-Za-z][A-Za-z0-9.-]*:.' THEN
        tail := lower(nss COLLATE "C");
      END IF;
    ELSIF nid = 'mpeg' THEN
      -- The standard's name before the first ':' is case-insensitive.
      IF nss COLLATE "C" ~ '^[A-Za-z0-9.-]+:' THEN
        p := strpos(nss, ':');
        head := lower(left(nss, p) COLLATE "C");
        tail := substr(nss, p + 1);
      END IF;
    END IF;
  END IF;
  -- RFC 8141 section 3: upper-case the two hex digits after every '%' (never decode).
  p := strpos(tail, '%');
  IF p > 0 THEN
    out := '';
    WHILE p > 0 LOOP
      out := out || left(tail, p) || upper(substr(tail, p + 1, 2) COLLATE "C");
      tail := substr(tail, p + 3);
      p := strpos(tail, '%');
    END LOOP;
    tail := out || tail;
  END IF;
  RETURN 'urn:' || nid || ':' || head || tail;
END
$fn$;

-- urn_valid(text): whether the text is a valid RFC 8141 URN.
CREATE OR REPLACE FUNCTION urn_valid(v text) RETURNS boolean
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN urn_check(v) IS NULL;

-- urn_nid(urn), urn_nss(urn): the NID and the NSS as written. The NSS ends at the first '?' or
-- '#', which it cannot contain.
CREATE OR REPLACE FUNCTION urn_nid(u urn) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN split_part(u, ':', 2);

CREATE OR REPLACE FUNCTION urn_nss(u urn) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN split_part(split_part(substr(u, length(split_part(u, ':', 2)) + 6), '?', 1), '#', 1);

-- urn_rfc8141_key(urn): the RFC 8141 section 3 key alone, urn_core's `Urn::rfc8141_key()`:
-- lower-case "urn" and NID, upper-case hex in every %XX, no r-, q- or f-component.
CREATE OR REPLACE FUNCTION urn_rfc8141_key(u urn) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $fn$
DECLARE
  nid  text := lower(split_part(u, ':', 2) COLLATE "C");
  tail text := split_part(split_part(substr(u, length(nid) + 6), '?', 1), '#', 1);
  out  text := '';
  p    int := strpos(tail, '%');
BEGIN
  WHILE p > 0 LOOP
    out := out || left(tail, p) || upper(substr(tail, p + 1, 2) COLLATE "C");
    tail := substr(tail, p + 3);
    p := strpos(tail, '%');
  END LOOP;
  RETURN 'urn:' || nid || ':' || out || tail;
END
$fn$;
END
$install$;
