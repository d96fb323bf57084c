-- What the database's own catalog holds (not the temporary one), by name: what load built into a
-- database file, or what someone has added to it since (load/database-catalogue.ts). Every schema,
-- table, view, macro, type, sequence and index of it, each named with its kind and schema; a table
-- with its definition as DuckDB writes it (columns, types, collations, defaults, constraints), which
-- is held to sql/database-layout.sql.
select name, definition
from (
    select 'schema ' || schema_name as name, null as definition
    from duckdb_schemas()
    where database_name = current_database() and not internal
    union all
    select schema_name || '.' || table_name, sql
    from duckdb_tables()
    where database_name = current_database()
    union all
    select 'view ' || schema_name || '.' || view_name, null
    from duckdb_views()
    where database_name = current_database() and not internal
    union all
    select 'macro ' || schema_name || '.' || function_name, null
    from duckdb_functions()
    where database_name = current_database() and not internal and function_type in ('macro', 'table_macro')
    union all
    -- A type of the database's own (create type json as integer) shadows a built-in one in every query.
    select 'type ' || schema_name || '.' || type_name, null
    from duckdb_types()
    where database_name = current_database() and not internal
    union all
    select 'sequence ' || schema_name || '.' || sequence_name, null
    from duckdb_sequences()
    where database_name = current_database()
    union all
    select 'index ' || schema_name || '.' || index_name, null
    from duckdb_indexes()
    where database_name = current_database()
)
order by name
