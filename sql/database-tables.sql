-- The tables and views of the database's own catalog (not the temporary one), by name: what load
-- built into a database file, or what someone has added to it since (load/database-file.ts).
select table_name as name
from duckdb_tables()
where database_name = current_database() and schema_name = 'main'
union
select view_name
from duckdb_views()
where database_name = current_database() and schema_name = 'main' and not internal
order by name
