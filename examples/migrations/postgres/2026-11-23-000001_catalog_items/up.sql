-- The catalog's items on PostgreSQL, after urn-sql's migration (domains urn, urn_key and the
-- functions urn_key_v2_inline, urn_key_index): the database computes the key, so rows written by any
-- client deduplicate the same way, and the unique index on urn_key_index(urn_key) holds keys of
-- any length the domain allows. Built-ins applied to a urn value are written pg_catalog.name:
-- a CHECK binds the functions it names when it is created, and another role's substr(urn, ...)
-- in a schema on the search_path would otherwise be the better match. urn-sql's names are left
-- to the search_path so that the migration follows urn-sql's into any schema: run both with no
-- schema another role can create in ahead of that one (the test schemas are private).
CREATE TABLE items (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  urn urn NOT NULL,
  urn_key text COLLATE "C" GENERATED ALWAYS AS (urn_key_v2_inline(urn)) STORED NOT NULL,
  title text NOT NULL,
  isbn urn CHECK (isbn IS NULL
                  OR pg_catalog.lower(pg_catalog.substr(isbn, 1, 9) COLLATE "C") = 'urn:isbn:'),
  see_also urn[] NOT NULL DEFAULT '{}'
);
CREATE UNIQUE INDEX items_urn_key_unique ON items ((urn_key_index(urn_key)) COLLATE "C");
