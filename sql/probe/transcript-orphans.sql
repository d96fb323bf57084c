-- The sessions whose lines are inside a loaded probe's folder (its own transcripts/, owners.sql) and
-- that none of its spawns names: nothing of the probe reads them (its census, agree, its registered
-- checks), as a tool_use file that matches no results row. The first six by probe and session, each
-- with its first file, and how many there are in all.
-- reads:  transcript_owners, spawns
-- params: probes, roots  parallel lists: each probe and its folder (absolute)
with folders as (
    select unnest($probes::VARCHAR[]) as probe, unnest($roots::VARCHAR[]) as root
),

orphans as (
    -- Named by its own file (<session>.jsonl) where it has one, not a sub-agent's.
    select p.probe, o.session_id, o.dir,
           arg_min(o.file, (regexp_replace(o.file, '^.*/|\.jsonl$', '', 'g') <> o.session_id, o.file)) as file
    from transcript_owners as o
    join folders as p on starts_with(o.abs, p.root || '/transcripts/')
    where not exists (select 1 from spawns as s where s.probe = p.probe and s.session_id = o.session_id)
    group by all
)

select probe, session_id, dir, file, count(*) over () as orphans
from orphans
order by probe, session_id, dir, file
limit 6
