-- urn-sql: URN domains and functions for PostgreSQL (>= 14), revision 3 (the domains' comments
-- say "urn-sql 3"). Idempotent: running it again is a no-op, and running it over an earlier
-- revision (1 or 2) upgrades the domains' constraints and the functions in place, without
-- touching a table or a stored key. `urn sql --dialect postgres` wraps it in BEGIN/COMMIT, so
-- `psql -v ON_ERROR_STOP=1` either installs everything or nothing; migration tools (diesel,
-- sqlx) run it in their own transaction.
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
-- * urn_key_v1(urn) exactly urn_core's `Urn::key()` under `KeyRules::V1`: RFC 8141 section 3
--                   plus the namespace rules of uuid, isbn, issn, ietf, nbn, lex and mpeg.
-- * urn_key_v1_inline(urn)
--                   the same key, as an SQL expression PostgreSQL inlines into a keyed
--                   table's generated column (call urn_key_v1 on text).
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
-- Why it looks like this:
-- * Speed. A keyed table pays, per row, the `urn` check and the key. Its key column is text
--   (revision 2's was the urn_key domain, whose check of a key just made cost ~1 us a row).
--   Each domain has one CHECK: an anchored regular expression (revision 2 had six CHECKs,
--   ~3 us), inside a CASE so that only a refused value goes on to the function that finds the
--   parser's message and raises it: valid values never pay for the message. A regex costs by
--   the states it passes through (~0.05 us each, built anew per call), so each value meets the
--   smallest of four grammars that decides it. The key is urn_key_v1_inline, inlined into the
--   generated column: the common spellings cost a few built-in calls (~0.05 us each) instead
--   of a PL/pgSQL call (~0.2 us, plus ~0.08 us a statement), and the rest goes to urn_key_v1,
--   PL/pgSQL written as few statements: a first one for a URN that is its own key, then the
--   NID and the NSS once, one CASE for the namespace rules that skips a rule when the letter
--   case is already the key's, the ISBN and ISSN check characters as arithmetic expressions,
--   and the %XX loop only for an NSS with more than one '%'.
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
-- * Independent of search_path: PL/pgSQL looks up the functions and types it names when it
--   runs, so each PL/pgSQL function here is self-contained (built-in functions only), and the
--   functions that call others have SQL-standard bodies (RETURN ...), bound to what they call
--   when created. A restore (pg_dump sets search_path to ''), which computes generated keys,
--   and sessions with another search_path work.
-- * Every case mapping and regex match is pinned to COLLATE "C": under a Turkish ICU default
--   collation lower('I') is a dotless i.
-- * A domain constraint is replaced NOT VALID and then validated where PostgreSQL can (it
--   cannot re-check values inside an array column of the domain).
-- * Where the urn_pg extension (crate urn-pg) owns the domains, it provides every object
--   here natively, with the same results and errors; this script then changes nothing (a
--   NOTICE says so), so applications can run it at start-up on either kind of database.
-- * No extension needed: the domains are plain SQL, the functions SQL and PL/pgSQL (installed
--   in every database by default); IMMUTABLE, PARALLEL SAFE. PostgreSQL 14 or later (the
--   SQL-standard function bodies); no superuser.
--
-- Table pattern (see urn_sql::postgres::TABLE_PATTERN):
--   urn     urn  NOT NULL,
--   urn_key text GENERATED ALWAYS AS (urn_key_v1_inline(urn)) STORED NOT NULL
--   CREATE UNIQUE INDEX items_urn_key_unique ON items (urn_key_index(urn_key));
-- (Tables made with revision 2's pattern, `urn_key urn_key GENERATED ALWAYS AS
-- (urn_key_v1(urn))`, keep working unchanged.)

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

-- PL/pgSQL runs the CREATE statements below as they are; they are in this block so that the
-- check above skips them too where urn_pg owns the objects (CREATE OR REPLACE would swap its
-- native code for this SQL).

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

  -- Leaving this block: character c at position p is not allowed in comp.
  <<scan>>
  BEGIN
    nid := substring(substr(v, 5) COLLATE "C" from '^[A-Za-z0-9-]*');
    p := 5 + length(nid);
    c := substr(v, p, 1);
    IF length(nid) > 32 THEN
      RETURN format('invalid URN: NID of %s characters at byte 4: it must have 2 to 32', length(nid));
    ELSIF c = '' THEN
      RETURN format('invalid URN: the NID must be followed by '':'' (byte %s)', p - 1);
    ELSIF c <> ':' THEN
      comp := 'NID';
      EXIT scan;
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
        EXIT scan;
      END IF;
    END LOOP;
  END;
  -- The character as urn_core's messages show it (Rust's char::escape_debug for the
  -- characters a URN check meets).
  RETURN format('invalid URN: ''%s'' at byte %s is not allowed in the %s',
    CASE
      WHEN c = E'\t' THEN '\t' WHEN c = E'\r' THEN '\r' WHEN c = E'\n' THEN '\n'
      WHEN c = '\' THEN '\\' WHEN c = '''' THEN '\''' WHEN c = '"' THEN '\"'
      WHEN ascii(c) < 32 OR ascii(c) BETWEEN 127 AND 159 OR ascii(c) = 173
        OR ascii(c) BETWEEN 768 AND 879 OR ascii(c) BETWEEN 8203 AND 8207
        OR ascii(c) BETWEEN 8232 AND 8238 OR ascii(c) BETWEEN 8288 AND 8292 OR ascii(c) = 65279
        OR ascii(c) IN (160, 5760, 8239, 8287, 12288) OR ascii(c) BETWEEN 8192 AND 8202
        THEN '\u{' || to_hex(ascii(c)) || '}'
      ELSE c END,
    p - 1, comp);
END
$fn$;
-- Revision 2's helper of urn_check, now inside it (tested first: IF EXISTS would say so on
-- every run).
IF to_regprocedure('urn_check_char(text)') IS NOT NULL THEN
  DROP FUNCTION urn_check_char(text);
END IF;

-- urn_key_index(urn_key): the value the UNIQUE index of a keyed table stores. Keys of at most
-- 2048 bytes are stored as they are (readable, and as fast as a plain text index); a longer
-- key as 'sha256:' || its SHA-256 in hex, which fits any btree. A key starts with "urn:", so a
-- key and a digest never collide; two long keys collide only if SHA-256 does. k::bytea is the
-- key's bytes: a key is ASCII without '\', the one character the text-to-bytea cast reads
-- specially. Every call in the body is IMMUTABLE and the function is not STRICT, so PostgreSQL
-- inlines it into the index expression; textsend() or convert_to() (both STABLE) would stop
-- that and cost ~2.5 us per inserted row.
-- Its body stays exactly revision 2's (rather than calling urn_key_index(text)): a session
-- keeps an index's expression as it was inlined when first used, and ON CONFLICT finds no
-- index for its expression if the body has changed since (measured: "there is no unique or
-- exclusion constraint matching the ON CONFLICT specification" until it reconnects).
CREATE OR REPLACE FUNCTION urn_key_index(k urn_key) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN octet_length(k) <= 2048 THEN k::text
              ELSE 'sha256:' || encode(sha256(k::bytea), 'hex') END;

-- urn_key_index(text): the same for the text key column of the table pattern, whose key is
-- generated by the key function and so canonical without the urn_key domain's check (which
-- would run at each use of k in the inlined body). `urn_key_index(urn_key)` on a text column
-- picks this one; on an urn_key column (revision 2's tables), the one above.
CREATE OR REPLACE FUNCTION urn_key_index(k text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE WHEN octet_length(k) <= 2048 THEN k
              ELSE 'sha256:' || encode(sha256(k::bytea), 'hex') END;

-- urn_key_v1(urn): the canonical key, equal to urn_core's `Urn::key()` (KeyRules::V1):
-- lower-case "urn" and NID, the namespace's rule where the NSS is valid for that namespace
-- (uuid, isbn, issn, ietf, nbn, lex, mpeg), upper-case hex in every %XX, no r-, q- or
-- f-component. The parameter is the `urn` domain, so text arguments are checked (garbage
-- raises the domain's check_violation instead of yielding a wrong key).
--
-- A URN without '%', '?', '#' or an upper-case letter, outside urn:isbn: and urn:issn: (whose
-- keys drop or add hyphens and upper-case an 'x'), is its own key (every other rule only
-- lower-cases): one statement. Otherwise a rule that only changes letter case is skipped when
-- the case is already the key's (then the rule and the generic key agree), so only an NSS that
-- needs it pays for its namespace's validity check. An ISBN or ISSN with a hyphen to drop or
-- add, or a lower-case 'x', is checked (shape and check character) in a second step.
CREATE OR REPLACE FUNCTION urn_key_v1(u urn) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $fn$
DECLARE
  nid text;
  nss text;
  k   text;  -- the NSS of the key, before its %XX are upper-cased
  d   text;
  p   int;
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
  -- Every NID with a rule has 3 or 4 characters: one test sends the others to the generic key.
  k := CASE WHEN length(nid) NOT IN (3, 4) THEN nss ELSE CASE nid
    WHEN 'uuid' THEN CASE
      WHEN nss = lower(nss COLLATE "C") THEN nss
      WHEN length(nss) = 36 AND substr(nss, 9, 1) = '-' AND substr(nss, 14, 1) = '-'
           AND substr(nss, 19, 1) = '-' AND substr(nss, 24, 1) = '-'
           AND nss COLLATE "C" ~ '^[0-9A-Fa-f]+-[0-9A-Fa-f]+-[0-9A-Fa-f]+-[0-9A-Fa-f]+-[0-9A-Fa-f]+$'
        THEN lower(nss COLLATE "C")
      ELSE nss END
    -- NULL: decided below.
    WHEN 'isbn' THEN CASE WHEN strpos(nss, '-') = 0 AND strpos(nss, 'x') = 0 THEN nss END
    WHEN 'issn' THEN CASE WHEN length(nss) = 9 AND strpos(nss, 'x') = 0 THEN nss END
    -- RFC 2648 forms are case-insensitive as a whole; params: registries keep their case.
    WHEN 'ietf' THEN CASE
      WHEN nss = lower(nss COLLATE "C") THEN nss
      WHEN nss COLLATE "C" ~ '^([Rr][Ff][Cc]|[Ff][Yy][Ii]|[Ss][Tt][Dd]|[Bb][Cc][Pp]):[0-9]+$|^([Ii][Dd]|[Mm][Tt][Gg]):[A-Za-z0-9-]+$'
        THEN lower(nss COLLATE "C")
      ELSE nss END
    -- The country code and sub-namespaces before the first '-' are case-insensitive.
    WHEN 'nbn' THEN CASE
      WHEN left(nss, strpos(nss, '-')) = lower(left(nss, strpos(nss, '-')) COLLATE "C") THEN nss
      WHEN nss COLLATE "C" ~ '^[A-Za-z][A-Za-z](:[A-Za-z0-9]+)*-[^/]'
        THEN lower(left(nss, strpos(nss, '-')) COLLATE "C") || substr(nss, strpos(nss, '-') + 1)
      ELSE nss END
    -- A lex name is case-insensitive as a whole.
    WHEN 'lex' THEN CASE
      WHEN nss = lower(nss COLLATE "C") THEN nss
      WHEN nss COLLATE "C" ~ '^[A-Za-z][A-Za-z0-9.-]*:.' THEN lower(nss COLLATE "C")
      ELSE nss END
    -- The standard's name before the first ':' is case-insensitive.
    WHEN 'mpeg' THEN CASE
      WHEN left(nss, strpos(nss, ':')) = lower(left(nss, strpos(nss, ':')) COLLATE "C") THEN nss
      WHEN nss COLLATE "C" ~ '^[A-Za-z0-9.-]+:'
        THEN lower(left(nss, strpos(nss, ':')) COLLATE "C") || substr(nss, strpos(nss, ':') + 1)
      ELSE nss END
    ELSE nss END END;
  -- The common case: no %XX to upper-case.
  IF strpos(k, '%') = 0 THEN
    RETURN 'urn:' || nid || ':' || k;
  END IF;
  IF k IS NULL THEN
    -- An ISBN or ISSN whose key may differ from it. Valid (digits, single hyphens between
    -- them, X only as the check character, the check character right): the key is the
    -- digits (ISSN: NNNN-NNNC), X upper case; otherwise the generic key. The mod-11 check
    -- characters (ISSN, ISBN-10) sum the characters' codes times their weights (their
    -- distance from the end plus one) and take the codes' offset out at once ('0' is 48,
    -- times the sum of the weights), and 30 more for an X (88 - 48 is 40, worth 10).
    d := upper(replace(nss, '-', '') COLLATE "C");
    k := CASE
      WHEN nid = 'issn' THEN CASE
        WHEN length(d) = 8 AND (length(nss) = 8 OR (length(nss) = 9 AND substr(nss, 5, 1) = '-'))
             AND d COLLATE "C" ~ '^[0-9]+[0-9X]$'
             AND (8 * ascii(substr(d, 1, 1)) + 7 * ascii(substr(d, 2, 1))
                  + 6 * ascii(substr(d, 3, 1)) + 5 * ascii(substr(d, 4, 1))
                  + 4 * ascii(substr(d, 5, 1)) + 3 * ascii(substr(d, 6, 1))
                  + 2 * ascii(substr(d, 7, 1)) + ascii(substr(d, 8, 1))
                  - 36 * 48 - CASE WHEN right(d, 1) = 'X' THEN 30 ELSE 0 END) % 11 = 0
          THEN left(d, 4) || '-' || right(d, 4)
        ELSE nss END
      WHEN left(nss, 1) = '-' OR right(nss, 1) = '-' OR strpos(nss, '--') > 0
           OR length(nss) - length(d) > 4
        THEN nss
      -- ISBN-13: read as hexadecimal, the digits are the 4-bit halves of a number's bytes,
      -- those of weight 1 the low halves of n's bytes and those of weight 3 the low halves of
      -- n >> 4's; a sum of bytes is the number modulo 255.
      WHEN length(d) = 13 AND d COLLATE "C" ~ '^97[89][0-9]+$'
           AND ((('x' || d)::bit(52)::bigint & x'0F0F0F0F0F0F0F'::bigint) % 255
                + 3 * (((('x' || d)::bit(52)::bigint >> 4) & x'0F0F0F0F0F0F0F'::bigint) % 255))
               % 10 = 0
        THEN d
      WHEN length(d) = 10 AND d COLLATE "C" ~ '^[0-9]+[0-9X]$'
           AND (10 * ascii(substr(d, 1, 1)) + 9 * ascii(substr(d, 2, 1))
                + 8 * ascii(substr(d, 3, 1)) + 7 * ascii(substr(d, 4, 1))
                + 6 * ascii(substr(d, 5, 1)) + 5 * ascii(substr(d, 6, 1))
                + 4 * ascii(substr(d, 7, 1)) + 3 * ascii(substr(d, 8, 1))
                + 2 * ascii(substr(d, 9, 1)) + ascii(substr(d, 10, 1))
                - 55 * 48 - CASE WHEN right(d, 1) = 'X' THEN 30 ELSE 0 END) % 11 = 0
        THEN d
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
  WHILE p > 0 LOOP
    k := overlay(k PLACING upper(substr(k, p + 1, 2) COLLATE "C") FROM p + 1 FOR 2);
    p := p + 2 + nullif(strpos(substr(k, p + 3), '%'), 0);
  END LOOP;
  RETURN 'urn:' || nid || ':' || k;
END
$fn$;

-- urn_key_v1_inline(urn): urn_key_v1(urn), written as one SQL expression that PostgreSQL
-- inlines where it is called on a urn column, as in a keyed table's generated key. The
-- spellings most data has are keyed by a few built-in calls, without a PL/pgSQL call (~0.3 to
-- 0.8 us a row instead of ~0.6 to 2.2 us); the rest goes to urn_key_v1:
-- * an NSS without an upper-case letter or a '%', outside urn:isbn: and urn:issn: (whose keys
--   drop or add hyphens and upper-case an 'x'): the URN lower-cased, without its components
--   (every other namespace rule only lower-cases);
-- * the same with one %XX in the NSS: its two hex digits upper-cased too;
-- * a NID of other than 3 or 4 characters (every NID with a rule has 3 or 4), no '%': the
--   generic key, lower-case prefix and the NSS as written;
-- * urn:isbn: and a hyphenated ISBN-13 (at most four single hyphens between the digits,
--   prefix 978 or 979, the check digit right): the digits. Read as hexadecimal, the digits
--   are the 4-bit halves of a number's bytes, those of weight 1 the low halves of n's bytes and
--   those of weight 3 the low halves of n >> 4's; a sum of bytes is the number modulo 255.
-- (Tests hold these facts to urn-core's namespace table.) Inlining puts the argument at each
-- of its uses, so on text, or on `x::urn`, it would check the domain once per use: call
-- urn_key_v1 there, which checks once. Not STRICT (a strict function with a CASE body is not
-- inlined): NULL goes to the ELSE branch, whose function is strict.
CREATE OR REPLACE FUNCTION urn_key_v1_inline(u urn) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN CASE lower(left(u, 9) COLLATE "C")
    WHEN 'urn:isbn:' THEN CASE
      WHEN length(u) BETWEEN 22 AND 26 AND strpos(u, '--') = 0 AND right(u, 1) <> '-'
           AND substr(u, 10) COLLATE "C" ~ '^[0-9][0-9-]*$'
           AND length(replace(u, '-', '')) = 22
           AND substr(replace(u, '-', ''), 10, 3) IN ('978', '979')
           AND ((('x' || replace(substr(u, 10), '-', ''))::bit(52)::bigint
                 & x'0F0F0F0F0F0F0F'::bigint) % 255
                + 3 * (((('x' || replace(substr(u, 10), '-', ''))::bit(52)::bigint >> 4)
                        & x'0F0F0F0F0F0F0F'::bigint) % 255)) % 10 = 0
        THEN 'urn:isbn:' || replace(substr(u, 10), '-', '')
      ELSE urn_key_v1(u) END
    WHEN 'urn:issn:' THEN urn_key_v1(u)
    ELSE CASE
      WHEN strpos(u, '%') = 0 THEN CASE
        WHEN strpos(u, '?') = 0 AND strpos(u, '#') = 0 THEN CASE
          WHEN lower(u COLLATE "C") = u THEN u::text
          WHEN u COLLATE "C" ~ '^[^:]*:[^:]*:[^A-Z]*$' THEN lower(u COLLATE "C")
          WHEN strpos(substr(u, 5), ':') NOT IN (4, 5)
            THEN lower(left(u, strpos(substr(u, 5), ':') + 4) COLLATE "C")
                 || substr(u, strpos(substr(u, 5), ':') + 5)
          ELSE urn_key_v1(u) END
        WHEN u COLLATE "C" ~ '^[^:]*:[^:]*:[^A-Z?#]*[?#]'
          THEN split_part(split_part(lower(u COLLATE "C"), '?', 1), '#', 1)
        WHEN strpos(substr(u, 5), ':') NOT IN (4, 5)
          THEN lower(left(u, strpos(substr(u, 5), ':') + 4) COLLATE "C")
               || split_part(split_part(substr(u, strpos(substr(u, 5), ':') + 5), '?', 1), '#', 1)
        ELSE urn_key_v1(u) END
      WHEN u COLLATE "C" ~ '^[^:]*:[^:]*:[^A-Z?#%]*%[0-9A-Fa-f][0-9A-Fa-f][^A-Z?#%]*([?#]|$)'
        THEN overlay(split_part(split_part(lower(u COLLATE "C"), '?', 1), '#', 1)
                     PLACING upper(substr(u, strpos(u, '%') + 1, 2) COLLATE "C")
                     FROM strpos(u, '%') + 1 FOR 2)
      ELSE urn_key_v1(u) END END;

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
  nid text := lower(split_part(u, ':', 2) COLLATE "C");
  k   text := split_part(split_part(substr(u, length(nid) + 6), '?', 1), '#', 1);
  p   int := strpos(k, '%');
BEGIN
  WHILE p > 0 LOOP
    k := overlay(k PLACING upper(substr(k, p + 1, 2) COLLATE "C") FROM p + 1 FOR 2);
    p := p + 2 + nullif(strpos(substr(k, p + 3), '%'), 0);
  END LOOP;
  RETURN 'urn:' || nid || ':' || k;
END
$fn$;

-- The failure paths of the domains' CHECKs, reached only by a value the check's regular
-- expression refused: each raises the reason as a check_violation whose detail names the
-- domain and constraint (the error PostgreSQL itself would raise, with the reason added).

-- urn_raise_check_violation(message, domain, name): raises that error.
CREATE OR REPLACE FUNCTION urn_raise_check_violation(message text, domain text, name text)
  RETURNS boolean
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
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
CREATE OR REPLACE FUNCTION urn_key_problem(v text, k text) RETURNS text
  LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $fn$
DECLARE
  -- The assigned name ends at the first '?' or '#' (a valid URN is ASCII: chars are bytes).
  n int := length(split_part(split_part(v, '?', 1), '#', 1));
BEGIN
  IF n < length(v) THEN
    RETURN format('invalid URN: a URN key has no r-, q- or f-component, but one starts at byte %s', n);
  END IF;
  FOR i IN 1..length(v) LOOP
    IF substr(v, i, 1) IS DISTINCT FROM substr(k, i, 1) THEN
      RETURN format('invalid URN: not a canonical URN key: byte %s differs from the key', i - 1);
    END IF;
  END LOOP;
  RETURN NULL;
END
$fn$;

-- urn_domain_error(text), urn_key_domain_error(text): the reason for the value, raised.
CREATE OR REPLACE FUNCTION urn_domain_error(v text) RETURNS boolean
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN urn_raise_check_violation(coalesce(urn_check(v), 'invalid URN'), 'urn', 'urn_syntax');

CREATE OR REPLACE FUNCTION urn_key_domain_error(v text) RETURNS boolean
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  -- COALESCE evaluates left to right and stops at the first non-NULL: the parser's message
  -- for text that is no URN, else (v::urn then passes) the difference from the key.
  RETURN urn_raise_check_violation(
    coalesce(urn_check(v), urn_key_problem(v, urn_rfc8141_key(v::urn)),
             'invalid URN: not a canonical URN key'),
    'urn_key', 'urn_key_canonical');

  -- The domains' constraints. The comment records which revision a domain has; an older
  -- revision's constraints are replaced: added NOT VALID, then validated below.
  IF obj_description(to_regtype('urn'), 'pg_type') IS DISTINCT FROM 'urn-sql 3: RFC 8141 URN, at most 65536 bytes' THEN
    FOR con IN SELECT conname FROM pg_constraint WHERE contypid = to_regtype('urn') LOOP
      EXECUTE format('ALTER DOMAIN urn DROP CONSTRAINT %I', con.conname);
    END LOOP;
    -- urn_core::patterns::URN with the NID as [A-Za-z0-9-]*[A-Za-z0-9], its first character
    -- and its length (2 to 32) checked apart (split_part(VALUE, ':', 2) is the NID of a value
    -- the regex accepts; fewer regex states, ~0.1 us less), and %XX as
    -- %[0-9A-Fa-f][0-9A-Fa-f]. A regex costs by the states it passes through, so each value
    -- meets the smallest grammar that decides it: without '%', '?' or '#' (most URNs) the NSS
    -- alone; without '%' or '?' the NSS and an f-component; without '?+' no r-component;
    -- otherwise the whole grammar. Each is the whole grammar restricted to such values.
    ALTER DOMAIN urn ADD CONSTRAINT urn_syntax CHECK (
      CASE WHEN octet_length(VALUE) <= 65536
                AND octet_length(split_part(VALUE, ':', 2)) BETWEEN 2 AND 32
                AND substr(VALUE, 5, 1) <> '-'
                AND CASE
                  WHEN strpos(VALUE, '%') = 0 AND strpos(VALUE, '?') = 0 THEN CASE
                    WHEN strpos(VALUE, '#') = 0
                      THEN VALUE COLLATE "C" ~ '^[Uu][Rr][Nn]:[A-Za-z0-9-]*[A-Za-z0-9]:[A-Za-z0-9._~!$&''()*+,;=:@-][A-Za-z0-9._~!$&''()*+,;=:@/-]*$'
                    ELSE VALUE COLLATE "C" ~ '^[Uu][Rr][Nn]:[A-Za-z0-9-]*[A-Za-z0-9]:[A-Za-z0-9._~!$&''()*+,;=:@-][A-Za-z0-9._~!$&''()*+,;=:@/-]*(#[A-Za-z0-9._~!$&''()*+,;=:@/?-]*)?$'
                    END
                  WHEN strpos(VALUE, '?+') = 0
                    THEN VALUE COLLATE "C" ~ '^[Uu][Rr][Nn]:[A-Za-z0-9-]*[A-Za-z0-9]:([A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f][0-9A-Fa-f])([A-Za-z0-9._~!$&''()*+,;=:@/-]|%[0-9A-Fa-f][0-9A-Fa-f])*(\?=([A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f][0-9A-Fa-f])([A-Za-z0-9._~!$&''()*+,;=:@/?-]|%[0-9A-Fa-f][0-9A-Fa-f])*)?(#([A-Za-z0-9._~!$&''()*+,;=:@/?-]|%[0-9A-Fa-f][0-9A-Fa-f])*)?$'
                  ELSE VALUE COLLATE "C" ~ '^[Uu][Rr][Nn]:[A-Za-z0-9-]*[A-Za-z0-9]:([A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f][0-9A-Fa-f])([A-Za-z0-9._~!$&''()*+,;=:@/-]|%[0-9A-Fa-f][0-9A-Fa-f])*(\?\+([A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f][0-9A-Fa-f])([A-Za-z0-9._~!$&''()*+,;=:@/-]|%[0-9A-Fa-f][0-9A-Fa-f]|\?+([A-Za-z0-9._~!$&''()*+,;:@/-]|%[0-9A-Fa-f][0-9A-Fa-f]))*\?*)?(\?=([A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f][0-9A-Fa-f])([A-Za-z0-9._~!$&''()*+,;=:@/?-]|%[0-9A-Fa-f][0-9A-Fa-f])*)?(#([A-Za-z0-9._~!$&''()*+,;=:@/?-]|%[0-9A-Fa-f][0-9A-Fa-f])*)?$'
                  END
           THEN true
           ELSE urn_domain_error(VALUE) END) NOT VALID;
    COMMENT ON DOMAIN urn IS 'urn-sql 3: RFC 8141 URN, at most 65536 bytes';
  END IF;
  IF obj_description(to_regtype('urn_key'), 'pg_type') IS DISTINCT FROM 'urn-sql 3: canonical URN key, at most 65536 bytes' THEN
    FOR con IN SELECT conname FROM pg_constraint WHERE contypid = to_regtype('urn_key') LOOP
      EXECUTE format('ALTER DOMAIN urn_key DROP CONSTRAINT %I', con.conname);
    END LOOP;
    ALTER DOMAIN urn_key ADD CONSTRAINT urn_key_canonical CHECK (
      CASE WHEN octet_length(VALUE) <= 65536
                AND octet_length(split_part(VALUE, ':', 2)) <= 32
                AND CASE WHEN strpos(VALUE, '%') = 0
                  THEN VALUE COLLATE "C" ~ '^urn:[a-z0-9][a-z0-9-]*[a-z0-9]:[A-Za-z0-9._~!$&''()*+,;=:@-][A-Za-z0-9._~!$&''()*+,;=:@/-]*$'
                  ELSE VALUE COLLATE "C" ~ '^urn:[a-z0-9][a-z0-9-]*[a-z0-9]:([A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-F][0-9A-F])([A-Za-z0-9._~!$&''()*+,;=:@/-]|%[0-9A-F][0-9A-F])*$'
                  END
           THEN true
           ELSE urn_key_domain_error(VALUE) END) NOT VALID;
    COMMENT ON DOMAIN urn_key IS 'urn-sql 3: canonical URN key, at most 65536 bytes';
  END IF;
  -- Validating re-checks every stored value. PostgreSQL cannot re-check values inside an array
  -- (or another container) of a domain: while a column such as `see_also urn[]` exists it
  -- refuses with SQLSTATE 0A000 ("cannot alter type "urn" because column ... uses it"), and
  -- the constraint stays NOT VALID, which still checks every value written from now on. The
  -- stored values were checked by the previous revision's constraints, which accept the same
  -- language; the next run of this script tries again.
  FOR con IN SELECT contypid::regtype AS domain, conname FROM pg_constraint
             WHERE contypid IN (to_regtype('urn'), to_regtype('urn_key')) AND NOT convalidated LOOP
    BEGIN
      EXECUTE format('ALTER DOMAIN %s VALIDATE CONSTRAINT %I', con.domain, con.conname);
    EXCEPTION WHEN feature_not_supported THEN
      NULL;
    END;
  END LOOP;
END
$install$;
