-- spawn_times: when each spawn ran, for the report's timeline of spawns by phase.
--
-- reads:   spawns
-- params:  none
-- returns: one row per spawn
--   probe       VARCHAR
--   seq         BIGINT
--   arm         VARCHAR
--   phase       VARCHAR
--   status      VARCHAR  counted | pilot | void
--   started_at  VARCHAR  its start in UTC, ISO 8601 (YYYY-MM-DDTHH:MM:SS.mmmZ); NULL when started_at does not parse
--   seconds     DOUBLE   ended_at - started_at, to the millisecond; NULL when either does not parse
--   cost_usd    DOUBLE   the envelope's total_cost_usd; NULL without one
-- order:   probe, seq

select
    probe,
    seq,
    arm,
    phase,
    status,
    strftime(timezone('UTC', try_cast(started_at as TIMESTAMPTZ)), '%Y-%m-%dT%H:%M:%S.%gZ') as started_at,
    round(epoch(try_cast(ended_at as TIMESTAMPTZ)) - epoch(try_cast(started_at as TIMESTAMPTZ)), 3) as seconds,
    cost_usd
from spawns
order by probe, seq
