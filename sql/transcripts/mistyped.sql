-- Which of a line's typed fields does not have its type, what it must be, and what it is (its
-- first 60 characters): the timestamp and version are strings; a response's usage is an object
-- holding at least one of its four token counts, its cache_creation an object, and each token
-- count an integer of at most 2^63 - 1 (omg_usage_mistyped); and so a mirrored response's timestamp and
-- usage, on a progress line (omg_mirrored). The first, in that order.
-- params: files  the file, twice (files.sql); rec  the line's record number
with line as (
    select json,
           coalesce((json ->> '$.type') = 'progress' and (json ->> '$.data.message.type') = 'assistant'
                    and json_type(json, '$.data.message.message.usage') <> 'NULL', false) as mirror
    from read_ndjson_objects($files, ignore_errors = true, maximum_object_size = 268435456) with ordinality
    where ordinality = $rec
),

listed as (
    select [
        {'k': 'timestamp', 'want': 'a string', 'v': json -> '$.timestamp'},
        {'k': 'version', 'want': 'a string', 'v': json -> '$.version'},
        {'k': 'message.usage', 'want': 'an object that counts tokens (input_tokens, output_tokens, cache_creation_input_tokens or cache_read_input_tokens)',
         'v': json -> '$.message.usage'},
        {'k': 'message.usage.cache_creation', 'want': 'an object', 'v': json -> '$.message.usage.cache_creation'},
        {'k': 'message.usage.input_tokens', 'want': 'an integer', 'v': json -> '$.message.usage.input_tokens'},
        {'k': 'message.usage.output_tokens', 'want': 'an integer', 'v': json -> '$.message.usage.output_tokens'},
        {'k': 'message.usage.cache_creation_input_tokens', 'want': 'an integer',
         'v': json -> '$.message.usage.cache_creation_input_tokens'},
        {'k': 'message.usage.cache_read_input_tokens', 'want': 'an integer',
         'v': json -> '$.message.usage.cache_read_input_tokens'},
        {'k': 'message.usage.cache_creation.ephemeral_5m_input_tokens', 'want': 'an integer',
         'v': json -> '$.message.usage.cache_creation.ephemeral_5m_input_tokens'},
        {'k': 'message.usage.cache_creation.ephemeral_1h_input_tokens', 'want': 'an integer',
         'v': json -> '$.message.usage.cache_creation.ephemeral_1h_input_tokens'},
        -- A progress line that mirrors a sub-agent's response (omg_mirrored) is read as that response:
        -- its fields are none on any other line.
        {'k': 'data.message.timestamp', 'want': 'a string', 'v': case when mirror then json -> '$.data.message.timestamp' end},
        {'k': 'data.message.message.usage', 'want': 'an object that counts tokens (input_tokens, output_tokens, cache_creation_input_tokens or cache_read_input_tokens)',
         'v': case when mirror then json -> '$.data.message.message.usage' end},
        {'k': 'data.message.message.usage.cache_creation', 'want': 'an object', 'v': case when mirror then json -> '$.data.message.message.usage.cache_creation' end},
        {'k': 'data.message.message.usage.input_tokens', 'want': 'an integer', 'v': case when mirror then json -> '$.data.message.message.usage.input_tokens' end},
        {'k': 'data.message.message.usage.output_tokens', 'want': 'an integer', 'v': case when mirror then json -> '$.data.message.message.usage.output_tokens' end},
        {'k': 'data.message.message.usage.cache_creation_input_tokens', 'want': 'an integer',
         'v': case when mirror then json -> '$.data.message.message.usage.cache_creation_input_tokens' end},
        {'k': 'data.message.message.usage.cache_read_input_tokens', 'want': 'an integer',
         'v': case when mirror then json -> '$.data.message.message.usage.cache_read_input_tokens' end},
        {'k': 'data.message.message.usage.cache_creation.ephemeral_5m_input_tokens', 'want': 'an integer',
         'v': case when mirror then json -> '$.data.message.message.usage.cache_creation.ephemeral_5m_input_tokens' end},
        {'k': 'data.message.message.usage.cache_creation.ephemeral_1h_input_tokens', 'want': 'an integer',
         'v': case when mirror then json -> '$.data.message.message.usage.cache_creation.ephemeral_1h_input_tokens' end}] as l
    from line
),

-- Each field with its place in the list, which the list's own length gives.
fields as (
    select unnest(l) as x, unnest(range(1, len(l) + 1)) as i
    from listed
)

select x.k as k, x.want as want, left(x.v::VARCHAR, 60) as v
from fields
where coalesce(json_type(x.v), 'NULL') <> 'NULL'
  and case x.want
          when 'a string' then json_type(x.v) <> 'VARCHAR'
          when 'an object' then json_type(x.v) <> 'OBJECT'
          when 'an integer' then omg_tokens_mistyped(x.v)
          -- As the pass reads usage: a count that is JSON null counts nothing.
          else json_type(x.v) <> 'OBJECT'
               or list_bool_and([coalesce(json_type(x.v, '$.' || c), 'NULL') = 'NULL'
                                 for c in ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens']])
      end
order by i
limit 1;
