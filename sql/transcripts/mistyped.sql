-- Which of a line's typed fields does not have its type, what it must be, and what it is (its
-- first 61 characters: the reader shows 60 and an ellipsis): the timestamp and version are strings; a response's usage is an object
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

-- A response's usage fields, by their path under its usage object, in the order they are looked at.
usage_fields as (
    select *
    from (values (1, '', 'an object that counts tokens (input_tokens, output_tokens, cache_creation_input_tokens or cache_read_input_tokens)'),
                 (2, '.cache_creation', 'an object'),
                 (3, '.input_tokens', 'an integer'),
                 (4, '.output_tokens', 'an integer'),
                 (5, '.cache_creation_input_tokens', 'an integer'),
                 (6, '.cache_read_input_tokens', 'an integer'),
                 (7, '.cache_creation.ephemeral_5m_input_tokens', 'an integer'),
                 (8, '.cache_creation.ephemeral_1h_input_tokens', 'an integer')) as t(n, path, want)
),

-- The line's fields, in order: its timestamp and version, its own response's usage, and, on a progress
-- line that mirrors a sub-agent's response (omg_mirrored), that response's timestamp and usage (none on
-- any other line).
fields as (
    select 1 as i, 'timestamp' as k, 'a string' as want, json -> '$.timestamp' as v from line
    union all
    select 2, 'version', 'a string', json -> '$.version' from line
    union all
    select 10 + u.n, 'message.usage' || u.path, u.want, json -> ('$.message.usage' || u.path) from line, usage_fields as u
    union all
    select 20, 'data.message.timestamp', 'a string', case when mirror then json -> '$.data.message.timestamp' end from line
    union all
    select 20 + u.n, 'data.message.message.usage' || u.path, u.want,
           case when mirror then json -> ('$.data.message.message.usage' || u.path) end
    from line, usage_fields as u
)

-- One character past the SHOWN (60) an error quotes (validate.ts): the reader cuts it there with an ellipsis.
select k, want, left(v::VARCHAR, 61) as v
from fields
where coalesce(json_type(v), 'NULL') <> 'NULL'
  and case want
          when 'a string' then json_type(v) <> 'VARCHAR'
          when 'an object' then json_type(v) <> 'OBJECT'
          when 'an integer' then omg_tokens_mistyped(v)
          -- As the pass reads usage: a count that is JSON null counts nothing.
          else json_type(v) <> 'OBJECT'
               or list_bool_and([coalesce(json_type(v, '$.' || c), 'NULL') = 'NULL'
                                 for c in ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens']])
      end
order by i
limit 1;
