-- top_sessions: the loaded transcripts' longest or costliest sessions.
--
-- Needs no probe.
--
-- reads:   transcript_sessions, transcript_messages
-- params:  by
--   by  'duration' (the longest first) or 'cost' (the costliest first)
-- returns: up to 10 rows, one per session
--   session_id       VARCHAR
--   project          VARCHAR   the folder that holds its session file
--   first_timestamp  VARCHAR   its earliest line, in UTC (YYYY-MM-DD HH:MM:SS)
--   minutes          DOUBLE    last_timestamp - first_timestamp, in minutes to 0.1
--   responses        BIGINT    its API responses
--   total_tokens     BIGINT    input, output, cache creation and cache read tokens, summed
--   cost_usd         DECIMAL   NULL when one of its responses has no price
-- order:   by's column desc (unknown last), session_id

select
    session_id,
    project,
    strftime(timezone('UTC', first_timestamp), '%Y-%m-%d %H:%M:%S') as first_timestamp,
    round(epoch(duration) / 60, 1) as minutes,
    responses,
    (coalesce(input_tokens, 0) + coalesce(output_tokens, 0) + coalesce(cache_creation_input_tokens, 0)
        + coalesce(cache_read_input_tokens, 0))::BIGINT as total_tokens,
    cost_usd
from transcript_sessions
where responses > 0
order by case when $by = 'cost' then cost_usd::DOUBLE else epoch(duration) end desc nulls last, session_id
limit 10
