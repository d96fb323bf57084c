-- Which of a line's typed fields does not have its type, what it must be, and what it is (its
-- first 60 characters): the timestamp and version are strings, a response's token counts integers
-- of at most 2^63 - 1 (omg_usage_mistyped).
-- params: files  the file, twice (files.sql); rec  the line's record number
select x.k as k, x.want as want, left(x.v::VARCHAR, 60) as v
from (
    select unnest([{'k': 'timestamp', 'want': 'a string', 'v': json -> '$.timestamp'},
                   {'k': 'version', 'want': 'a string', 'v': json -> '$.version'},
                   {'k': 'message.usage.input_tokens', 'want': 'an integer', 'v': json -> '$.message.usage.input_tokens'},
                   {'k': 'message.usage.output_tokens', 'want': 'an integer', 'v': json -> '$.message.usage.output_tokens'},
                   {'k': 'message.usage.cache_creation_input_tokens', 'want': 'an integer',
                    'v': json -> '$.message.usage.cache_creation_input_tokens'},
                   {'k': 'message.usage.cache_read_input_tokens', 'want': 'an integer',
                    'v': json -> '$.message.usage.cache_read_input_tokens'},
                   {'k': 'message.usage.cache_creation.ephemeral_5m_input_tokens', 'want': 'an integer',
                    'v': json -> '$.message.usage.cache_creation.ephemeral_5m_input_tokens'},
                   {'k': 'message.usage.cache_creation.ephemeral_1h_input_tokens', 'want': 'an integer',
                    'v': json -> '$.message.usage.cache_creation.ephemeral_1h_input_tokens'}]) as x
    from read_ndjson_objects($files, ignore_errors = true, maximum_object_size = 268435456) with ordinality
    where ordinality = $rec
)
where case when x.want = 'a string' then coalesce(json_type(x.v), 'NULL') not in ('VARCHAR', 'NULL')
           else coalesce(json_type(x.v), 'NULL') <> 'NULL' and omg_tokens_mistyped(x.v) end
limit 1;
