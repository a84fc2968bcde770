DROP TABLE "items";
