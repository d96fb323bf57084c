-- Every column of every table the loaders built, with DuckDB's type (Evidence.viewColumns: the
-- schema command, and the views reference).
select table_name, column_name, data_type
from information_schema.columns
where table_schema = 'main'
