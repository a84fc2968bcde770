-- The catalog's items on PostgreSQL, after urn-sql's migration (domains urn, urn_key and the
-- function urn_key_v1): the database computes the key, so rows written by any client
-- deduplicate the same way.
CREATE TABLE items (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  urn urn NOT NULL,
  urn_key urn_key GENERATED ALWAYS AS (urn_key_v1(urn)) STORED UNIQUE,
  title text NOT NULL,
  isbn urn CHECK (isbn IS NULL OR lower(substr(isbn, 1, 9) COLLATE "C") = 'urn:isbn:'),
  see_also urn[] NOT NULL DEFAULT '{}'
);
