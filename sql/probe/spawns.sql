-- spawns: one row per results.jsonl row, typed, with its status (pilot, void or counted, from the
-- registration tables), its cost from the envelope, its note and its stderr (spawn_stderr).
create or replace table spawns as
with rows as (
    select probe, rec, json, env, from_json(json, '{"seq":"BIGINT","arm":"VARCHAR","phase":"VARCHAR","session_id":"VARCHAR",
      "mode":"VARCHAR","argv_file":"VARCHAR","plugin_dir":"VARCHAR","started_at":"VARCHAR","ended_at":"VARCHAR",
      "exit_code":"BIGINT","claude_version":"VARCHAR"}') as t
    from records where kind = 'results'
)
select r.probe, t.seq, t.arm, t.phase, t.session_id,
       case when p.session_id is not null then 'pilot'
            when v.arm is not null then 'void'
            else 'counted' end as status,
       t.exit_code,
       (r.env ->> 'total_cost_usd')::DOUBLE as cost_usd,
       t.claude_version, t.mode, t.argv_file, t.plugin_dir, t.started_at, t.ended_at,
       n.note, e.content as stderr,
       r.env as envelope,
       r.json as record
from rows r
left join pilot_sessions p on p.probe = r.probe and p.session_id = t.session_id
left join (select distinct probe, arm from void_arms) v on v.probe = r.probe and v.arm = t.arm
left join spawn_notes n on n.probe = r.probe and n.session_id = t.session_id
left join spawn_stderr e on e.probe = r.probe and e.session_id = t.session_id
order by r.probe, t.seq;

drop table spawn_stderr;
