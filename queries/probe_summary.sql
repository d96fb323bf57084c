-- probe_summary: each probe at a glance, for the head of its report: its spawns, the claude
-- versions they ran, and when the first started and the last ended (or started, when it never ended).
--
-- reads:   spawns
-- params:  none
-- returns: one row per probe
--   probe          VARCHAR
--   spawns         BIGINT     rows of results.jsonl, pilots and void spawns included
--   counted        BIGINT     of them, those counted (neither pilot nor void)
--   versions       VARCHAR[]  what claude --version printed, distinct, sorted
--   first_started  VARCHAR    the earliest started_at, in UTC (YYYY-MM-DD HH:MM:SS); NULL when none parses
--   last_ended     VARCHAR    the latest ended_at or started_at, in UTC, likewise: a spawn killed with no ended_at counts
-- order:   probe

select
    probe,
    count(*) as spawns,
    count(*) filter (where status = 'counted') as counted,
    coalesce(list_sort(list_distinct(list(claude_version) filter (where claude_version is not null))), []) as versions,
    strftime(timezone('UTC', min(try_cast(started_at as TIMESTAMPTZ))), '%Y-%m-%d %H:%M:%S') as first_started,
    strftime(timezone('UTC', max(greatest(try_cast(ended_at as TIMESTAMPTZ), try_cast(started_at as TIMESTAMPTZ)))), '%Y-%m-%d %H:%M:%S') as last_ended
from spawns
group by probe
order by probe
