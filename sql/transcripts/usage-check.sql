-- The first response of transcript_messages (by file, then record) whose counted usage cannot be
-- priced: a negative token count, more 1-hour cache writes than cache writes in all, or a split
-- (5-minute and 1-hour writes) that adds up to more than them: the 5-minute share is priced as the
-- writes less the 1-hour ones, and a split past the total says the line is no count. Its file's
-- absolute path (scan_files) and record, the field (its path in the line: a mirror's usage is
-- under data.message.message) and its value, for an error at file:line.
with fields as (
    select f.abs, m.rec, if(m.usage_mirrored, 'data.message.message.usage', 'message.usage') as usage_path,
           unnest([{'field': 'input_tokens', 'value': m.input_tokens},
                   {'field': 'output_tokens', 'value': m.output_tokens},
                   {'field': 'cache_creation_input_tokens', 'value': m.cache_creation_input_tokens},
                   {'field': 'cache_read_input_tokens', 'value': m.cache_read_input_tokens},
                   {'field': 'cache_creation.ephemeral_5m_input_tokens', 'value': m.cache_creation_5m_input_tokens},
                   {'field': 'cache_creation.ephemeral_1h_input_tokens', 'value': m.cache_creation_1h_input_tokens}]) as x,
           m.cache_creation_input_tokens as writes,
           m.cache_creation_1h_input_tokens as writes_1h
    from transcript_messages as m
    join scan_files as f using (file)
)

select abs, rec, usage_path || '.' || x.field as field, x.value as value,
       case when x.value < 0 then 'must not be negative'
            -- No cache_creation_input_tokens writes none, as the WHERE below reads it (a NULL would blank the message).
            when x.field = 'cache_creation.ephemeral_1h_input_tokens'
                then 'must not exceed "cache_creation_input_tokens" (' || coalesce(writes, 0) || ')'
            else 'plus the 1-hour writes (' || coalesce(writes_1h, 0) || ') must not exceed "cache_creation_input_tokens" ('
                 || coalesce(writes, 0) || ')' end as problem
from fields
where x.value < 0
   or (x.field = 'cache_creation.ephemeral_1h_input_tokens' and x.value > coalesce(writes, 0))
   or (x.field = 'cache_creation.ephemeral_5m_input_tokens' and x.value + coalesce(writes_1h, 0) > coalesce(writes, 0))
order by abs, rec, x.field
limit 1;
