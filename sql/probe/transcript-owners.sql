-- When probes load with their own transcripts/ (transcript_owners, owners.sql), the first session
-- whose transcript would stand in for another probe's once the transcript tables pool the folders
-- (they are keyed by session): one with lines in two transcripts folders ('two': dir and file the
-- first, other_dir and other_file the second, by folder), or one whose lines are in a probe's
-- transcripts/ while it is a spawn of another loaded probe, whether or not it is one of the folder's
-- own ('elsewhere': probe and seq that spawn, root the probe whose folder holds the lines, dir and
-- file where they are, also_own whether it is one of that probe's spawns too). With one folder named for all (--transcripts DIR), this is not asked.
-- reads:  transcript_owners (owners.sql), spawns
-- params: probes, roots  parallel lists: each probe and its folder (absolute)
with folders as (
    select unnest($probes::VARCHAR[]) as probe, unnest($roots::VARCHAR[]) as root
),

two as (
    select 1 as place, session_id, null::VARCHAR as probe, null::BIGINT as seq, null::VARCHAR as root,
           places[1].dir as dir, places[1].file as file, places[2].dir as other_dir, places[2].file as other_file,
           null::BOOLEAN as also_own
    from (
        select session_id, list({'dir': dir, 'file': file} order by dir) as places
        from (select session_id, dir, min(file) as file from transcript_owners group by all)
        group by session_id
        having count(*) > 1
    )
),

elsewhere as (
    select 2 as place, o.session_id, s.probe, s.seq, p.root, o.dir, o.file, null::VARCHAR as other_dir, null::VARCHAR as other_file,
           exists (select 1 from spawns as t where t.probe = p.probe and t.session_id = o.session_id) as also_own
    from transcript_owners as o
    join folders as p on starts_with(o.abs, p.root || '/transcripts/')
    join spawns as s on s.session_id = o.session_id and s.probe <> p.probe
)

select case place when 1 then 'two' else 'elsewhere' end as kind, session_id, probe, seq, root, dir, file, other_dir, other_file, also_own
from (select * from two union all select * from elsewhere)
order by place, session_id, probe, seq, dir, file
limit 1
