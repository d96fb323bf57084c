-- The first response of transcript_messages (by file, then record) at which its token counts, the
-- four of every response added up in that order, pass 2^63 - 1: no total the reports show (a day's,
-- a session's, all of them) could hold them past it. Nothing when all of them fit, which the first
-- step finds without sorting; only then are the responses summed in order.
with total as (
    select sum(coalesce(input_tokens, 0)::HUGEINT + coalesce(output_tokens, 0) + coalesce(cache_creation_input_tokens, 0)
               + coalesce(cache_read_input_tokens, 0)) as n
    from transcript_messages
),

running as (
    select f.abs, m.rec,
           sum(coalesce(m.input_tokens, 0)::HUGEINT + coalesce(m.output_tokens, 0) + coalesce(m.cache_creation_input_tokens, 0)
               + coalesce(m.cache_read_input_tokens, 0)) over (order by f.abs, m.rec rows unbounded preceding) as n
    from transcript_messages as m
    join scan_files as f using (file)
    where (select n from total) > 9223372036854775807
)

select abs, rec, n
from running
where n > 9223372036854775807
order by abs, rec
limit 1;
