-- price_docs: the JSON documents of the price table as written (file, rec: which document, json), for the
-- checks read_json cannot make: one document (a second with no model added no row), RFC 8259 (json-values.sql:
-- no trailing comma, NaN or repeated key), and no key a price table does not have (pricing-keys.sql).
-- params: file  the price table: a list of one absolute path (no glob)
--         name  its path, for messages
create or replace temp table price_docs as
select $name as file, ordinality as rec, json
from read_json_objects($file, format = 'unstructured', maximum_object_size = 268435456) with ordinality;
