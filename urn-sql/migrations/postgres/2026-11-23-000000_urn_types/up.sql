-- urn-sql: URN domains and the key function for PostgreSQL (>= 14).
--
-- * DOMAIN urn      RFC 8141 syntax (the regex is urn_core::patterns::URN) and the 8192-byte cap.
-- * DOMAIN urn_key  RFC 8141 section 3 canonical form (urn_core::patterns::URN_KEY).
-- * urn_key_v1(urn) exactly urn_core's `Urn::key()` under `KeyRules::V1`: RFC 8141 section 3
--                   plus the namespace rules of uuid, isbn, issn, ietf, nbn, lex and mpeg.
--
-- Why it looks like this:
-- * The function is not called `urn_key`: PostgreSQL parses a one-argument call named like a
--   type as a cast to that type (docs section 10.3, step 2), so `urn_key('URN:X:Y')` would be
--   a cast to the domain. It carries its rule version because stored generated columns are not
--   recomputed when a function is replaced: new rules come as urn_key_v2 plus a re-key
--   migration (see the urn-sql README).
-- * Every case mapping and regex match is pinned to COLLATE "C": under a Turkish ICU default
--   collation lower('I') is a dotless i.
-- * Plain SQL with SQL-standard bodies (no PL/pgSQL, no extension): IMMUTABLE, STRICT,
--   PARALLEL SAFE, dependencies tracked by PostgreSQL.
--
-- Table pattern (see urn_sql::postgres::TABLE_PATTERN):
--   urn     urn     NOT NULL,
--   urn_key urn_key GENERATED ALWAYS AS (urn_key_v1(urn)) STORED UNIQUE

CREATE DOMAIN urn AS text
  CONSTRAINT urn_syntax CHECK (
    octet_length(VALUE) <= 8192
    AND VALUE COLLATE "C" ~ '^[Uu][Rr][Nn]:[A-Za-z0-9][A-Za-z0-9-]{0,30}[A-Za-z0-9]:([A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f]{2})([A-Za-z0-9._~!$&''()*+,;=:@/-]|%[0-9A-Fa-f]{2})*(\?\+([A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f]{2})([A-Za-z0-9._~!$&''()*+,;=:@/-]|%[0-9A-Fa-f]{2}|\?+([A-Za-z0-9._~!$&''()*+,;:@/-]|%[0-9A-Fa-f]{2}))*\?*)?(\?=([A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-Fa-f]{2})([A-Za-z0-9._~!$&''()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*)?(#([A-Za-z0-9._~!$&''()*+,;=:@/?-]|%[0-9A-Fa-f]{2})*)?$'
  );

CREATE DOMAIN urn_key AS text
  CONSTRAINT urn_key_canonical CHECK (
    octet_length(VALUE) <= 8192
    AND VALUE COLLATE "C" ~ '^urn:[a-z0-9][a-z0-9-]{0,30}[a-z0-9]:([A-Za-z0-9._~!$&''()*+,;=:@-]|%[0-9A-F]{2})([A-Za-z0-9._~!$&''()*+,;=:@/-]|%[0-9A-F]{2})*$'
  );

-- Upper-cases the hex digits of every %XX triplet of already validated NSS text: split on '%',
-- upper-case the first two characters of every piece but the first, join again.
CREATE FUNCTION urn_pct_upper_v1(nss text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
  SELECT string_agg(CASE WHEN i = 1 THEN p ELSE upper(left(p, 2) COLLATE "C") || substr(p, 3) END,
                    '%' ORDER BY i)
  FROM unnest(string_to_array(nss, '%')) WITH ORDINALITY AS t(p, i);
END;

-- The same, skipping the split for NSS text without '%' (most URNs).
CREATE FUNCTION urn_hex_upper_v1(nss text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN CASE WHEN strpos(nss, '%') = 0 THEN nss ELSE urn_pct_upper_v1(nss) END;

-- ISBN-10 or ISBN-13 (RFC 3187): digits with at most four single hyphens between them, an
-- ISBN-10 may end in X; the check digit must match. `d` is the NSS without hyphens, upper case.
CREATE FUNCTION urn_isbn_valid_v1(nss text, d text) RETURNS boolean
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN nss COLLATE "C" ~ '^[0-9]+(-[0-9]+)*(-?[Xx])?$'
     AND length(nss) - length(d) <= 4
     AND CASE
           WHEN d COLLATE "C" ~ '^[0-9]{9}[0-9X]$' THEN
             (10*substr(d, 1, 1)::int + 9*substr(d, 2, 1)::int + 8*substr(d, 3, 1)::int + 7*substr(d, 4, 1)::int + 6*substr(d, 5, 1)::int + 5*substr(d, 6, 1)::int + 4*substr(d, 7, 1)::int + 3*substr(d, 8, 1)::int + 2*substr(d, 9, 1)::int + CASE WHEN right(d, 1) = 'X' THEN 10 ELSE right(d, 1)::int END) % 11 = 0
           WHEN d COLLATE "C" ~ '^97[89][0-9]{10}$' THEN
             (1*substr(d, 1, 1)::int + 3*substr(d, 2, 1)::int + 1*substr(d, 3, 1)::int + 3*substr(d, 4, 1)::int + 1*substr(d, 5, 1)::int + 3*substr(d, 6, 1)::int + 1*substr(d, 7, 1)::int + 3*substr(d, 8, 1)::int + 1*substr(d, 9, 1)::int + 3*substr(d, 10, 1)::int + 1*substr(d, 11, 1)::int + 3*substr(d, 12, 1)::int + 1*substr(d, 13, 1)::int) % 10 = 0
           ELSE false
         END;

-- ISSN (RFC 3044): NNNN-NNNC or NNNNNNNC, C a digit or X; the check character must match.
-- `d` is the NSS without its hyphen, upper case.
CREATE FUNCTION urn_issn_valid_v1(nss text, d text) RETURNS boolean
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN nss COLLATE "C" ~ '^[0-9]{4}-?[0-9]{3}[0-9Xx]$'
     AND (8*substr(d, 1, 1)::int + 7*substr(d, 2, 1)::int + 6*substr(d, 3, 1)::int + 5*substr(d, 4, 1)::int + 4*substr(d, 5, 1)::int + 3*substr(d, 6, 1)::int + 2*substr(d, 7, 1)::int + CASE WHEN right(d, 1) = 'X' THEN 10 ELSE right(d, 1)::int END) % 11 = 0;

-- The key's NSS for a lower-case NID: the namespace's rule where the NSS is valid for that
-- namespace, otherwise RFC 8141 section 3 (upper-case %XX hex, nothing else).
CREATE FUNCTION urn_key_nss_v1(nid text, nss text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN CASE
    WHEN nid = 'uuid' AND nss COLLATE "C" ~ '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$'
      THEN lower(nss COLLATE "C")
    WHEN nid = 'isbn' AND urn_isbn_valid_v1(nss, upper(replace(nss, '-', '') COLLATE "C"))
      THEN upper(replace(nss, '-', '') COLLATE "C")
    WHEN nid = 'issn' AND urn_issn_valid_v1(nss, upper(replace(nss, '-', '') COLLATE "C"))
      THEN left(nss, 4) || '-' || upper(right(nss, 4) COLLATE "C")
    WHEN nid = 'ietf' AND lower(nss COLLATE "C") COLLATE "C" ~ '^((rfc|fyi|std|bcp):[0-9]+|(id|mtg):[a-z0-9-]+)$'
      THEN lower(nss COLLATE "C")
    WHEN nid = 'nbn' AND nss COLLATE "C" ~ '^[A-Za-z]{2}(:[A-Za-z0-9]+)*-[^/]'
      THEN lower(left(nss, strpos(nss, '-')) COLLATE "C") || urn_hex_upper_v1(substr(nss, strpos(nss, '-') + 1))
    WHEN nid = 'lex' AND nss COLLATE "C" ~ '^[A-Za-z][A-Za-z0-9.-]*:.'
      THEN urn_hex_upper_v1(lower(nss COLLATE "C"))
    WHEN nid = 'mpeg' AND nss COLLATE "C" ~ '^[A-Za-z0-9.-]+:'
      THEN lower(left(nss, strpos(nss, ':')) COLLATE "C") || urn_hex_upper_v1(substr(nss, strpos(nss, ':') + 1))
    ELSE urn_hex_upper_v1(nss)
  END;

-- urn_key_v1(urn): the canonical key, equal to urn_core's `Urn::key()` (KeyRules::V1).
-- The parameter is the `urn` domain, so text arguments are checked (garbage raises the
-- domain's check_violation instead of yielding a wrong key). The NSS ends at the first '?' or
-- '#', which it cannot contain.
CREATE FUNCTION urn_key_v1(u urn) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  RETURN 'urn:' || lower(split_part(u, ':', 2) COLLATE "C") || ':'
      || urn_key_nss_v1(
           lower(split_part(u, ':', 2) COLLATE "C"),
           split_part(split_part(substr(u, length(split_part(u, ':', 2)) + 6), '?', 1), '#', 1));
