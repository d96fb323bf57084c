-- The first results.jsonl row (by probe, file, then line) at which the token counts of its probe's
-- envelopes (model_usage), the four of every model added up in that order, pass 2^63 - 1: no total
-- the reports show (an arm's, a model's, the probe's) could hold them past it. Nothing when every
-- probe's fit, which the first step finds from model_usage alone, without a join or a sort.
with over as (
    select probe
    from model_usage
    group by probe
    having sum(coalesce(input_tokens, 0)::HUGEINT + coalesce(output_tokens, 0) + coalesce(cache_read_input_tokens, 0)
               + coalesce(cache_creation_input_tokens, 0)) > 9223372036854775807
),

-- Only for a probe whose total does not fit: each row's counts, where its results.jsonl line is.
counts as (
    select u.probe, r.file, r.rec,
           coalesce(u.input_tokens, 0)::HUGEINT + coalesce(u.output_tokens, 0) + coalesce(u.cache_read_input_tokens, 0)
               + coalesce(u.cache_creation_input_tokens, 0) as n
    from model_usage as u
    join records as r on r.probe = u.probe and r.kind = 'results' and (r.json ->> 'session_id') = u.session_id
    where u.probe in (select probe from over)
),

running as (
    select probe, file, rec, sum(n) over (partition by probe order by file, rec rows unbounded preceding) as n
    from counts
)

select file, rec, n
from running
where n > 9223372036854775807
order by probe, file, rec
limit 1;
