-- The catalog's items on SQLite. The key is computed by the application (urn_core::Urn::key())
-- and written next to the URN; the UNIQUE key column deduplicates equivalent spellings. The
-- CHECK guards are urn_sql::sqlite::urn_guard / key_guard (a test keeps them identical).
CREATE TABLE "items" (
  "id" INTEGER PRIMARY KEY,
  "urn" TEXT NOT NULL CHECK (length("urn") <= 8192 AND lower(substr("urn", 1, 4)) = 'urn:' AND instr(substr("urn", 5), ':') BETWEEN 3 AND 33 AND substr("urn", 5, instr(substr("urn", 5), ':') - 1) NOT GLOB '*[^A-Za-z0-9-]*' AND substr("urn", 5, 1) <> '-' AND substr("urn", 3 + instr(substr("urn", 5), ':'), 1) <> '-' AND substr("urn", 5 + instr(substr("urn", 5), ':'), 1) NOT IN ('', '/', '?', '#') AND "urn" NOT GLOB '*[^A-Za-z0-9._~!$&''()*+,;=:@/?#%-]*' AND "urn" NOT GLOB '*%[^0-9A-Fa-f]*' AND "urn" NOT GLOB '*%?[^0-9A-Fa-f]*' AND "urn" NOT GLOB '*%' AND "urn" NOT GLOB '*%?' AND "urn" NOT GLOB '*#*#*'),
  "urn_key" TEXT NOT NULL UNIQUE CHECK (length("urn_key") <= 8192 AND "urn_key" GLOB 'urn:*' AND "urn_key" NOT GLOB '*[^A-Za-z0-9._~!$&''()*+,;=:@/%-]*' AND "urn_key" NOT GLOB '*%[a-f]*' AND "urn_key" NOT GLOB '*%?[a-f]*' AND substr("urn_key", 5, instr(substr("urn_key", 5), ':') - 1) NOT GLOB '*[^a-z0-9-]*' AND substr("urn_key", 1, 4 + instr(substr("urn_key", 5), ':')) = lower(substr("urn", 1, 4 + instr(substr("urn", 5), ':')))),
  "title" TEXT NOT NULL,
  "isbn" TEXT CHECK ("isbn" IS NULL OR (lower(substr("isbn", 1, 9)) = 'urn:isbn:' AND length("isbn") <= 8192 AND lower(substr("isbn", 1, 4)) = 'urn:' AND instr(substr("isbn", 5), ':') BETWEEN 3 AND 33 AND substr("isbn", 5, instr(substr("isbn", 5), ':') - 1) NOT GLOB '*[^A-Za-z0-9-]*' AND substr("isbn", 5, 1) <> '-' AND substr("isbn", 3 + instr(substr("isbn", 5), ':'), 1) <> '-' AND substr("isbn", 5 + instr(substr("isbn", 5), ':'), 1) NOT IN ('', '/', '?', '#') AND "isbn" NOT GLOB '*[^A-Za-z0-9._~!$&''()*+,;=:@/?#%-]*' AND "isbn" NOT GLOB '*%[^0-9A-Fa-f]*' AND "isbn" NOT GLOB '*%?[^0-9A-Fa-f]*' AND "isbn" NOT GLOB '*%' AND "isbn" NOT GLOB '*%?' AND "isbn" NOT GLOB '*#*#*')),
  -- A JSON array of URN strings (SQLite has no arrays).
  "see_also" TEXT NOT NULL DEFAULT '[]' CHECK (json_valid("see_also") AND json_type("see_also") = 'array')
);
