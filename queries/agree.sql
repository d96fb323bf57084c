-- agree: the census derived from the committed records against the one derived from transcripts.
--
-- Compares, spawn by spawn, the tool_use count of every tool, the id of every call and the tool it
-- names, and of the calls both sides hold by id: their order, the agent_id of each and its input's
-- key names (in any order); the skills in call order; and the answer to every Skill call: a
-- skill_results row that says the call was answered needs the transcript's answer, the same
-- is_error and text, and an answer in the transcript needs its row (a probe without
-- skill_results.jsonl has none: its conjuncts would read no answer); and each sub-agent's calls,
-- as its results count them and progress lines mirror them, against those the records give it. A
-- spawn is compared when the transcripts hold its session. A transcript file named for a spawn's
-- session (its name, or a folder on its path) that holds none of that session's lines, an empty
-- file for one, is not a missing transcript: beside records that show calls it is a difference; so
-- is a spawn's file (one holding its lines, or named for it) that holds lines of another session
-- and is not named for it too, which no census of the spawn counts.
--
-- reads:   spawns, tool_uses, skill_calls, source_files, transcript_files, transcript_sessions,
--          transcript_tool_uses, transcript_tool_results, transcript_subagent_results,
--          transcript_mirrored_calls
-- params:  none
-- returns: one row per spawn that agrees or is gone, and one per difference
--   probe        VARCHAR
--   seq          BIGINT
--   arm          VARCHAR
--   session_id   VARCHAR
--   verdict      VARCHAR  agree | differ | gone (not compared: no transcript holds its session;
--                         its calls, if its records show any, are counted in records, unchecked)
--   aspect       VARCHAR  tool | tool id | call order | agent id | input keys | skills | skill result |
--                         sub-agent | session (NULL unless verdict is differ)
--   item         VARCHAR  the tool name, the tool_use_id of the call or skill call, the sub-agent's id, or
--                         the transcript file named for a session it does not hold or holding another
--                         session's lines (differ, or gone beside such a file)
--   records      VARCHAR  what the committed records say (gone: the calls nothing checked, or NULL)
--   transcripts  VARCHAR  what the transcripts say ('no session' beside such a file; else NULL when gone)
-- order:   probe, seq, aspect, item, records, transcripts

with

covered as (
    select s.probe, s.session_id
    from spawns as s
    where exists (select 1 from transcript_sessions as t where t.session_id = s.session_id)
),

-- Spawns not covered whose session names a transcript file.
-- Each spawn's transcript files named for its session (their stem, or a folder on their path).
named_files as (
    select s.probe, s.session_id, f.file
    from spawns as s
    join transcript_files as f
        on list_contains(string_split(regexp_replace(f.file, '\.jsonl$', ''), '/'), s.session_id)
),

hollow as (
    select n.probe, n.session_id, min(n.file) as file
    from named_files as n
    where not exists (select 1 from covered as c where c.probe = n.probe and c.session_id = n.session_id)
    group by n.probe, n.session_id
),

-- The calls each side holds of the spawns compared, counted per tool and compared by id.
record_calls as (
    select t.probe, t.session_id, t.ordinal, t.tool_use_id, t.name, t.input_keys, t.agent_id
    from tool_uses as t
    join covered using (probe, session_id)
),

transcript_calls as (
    select c.probe, t.session_id, t.ordinal, t.tool_use_id, t.name, t.input_keys, t.agent_id
    from transcript_tool_uses as t
    join covered as c using (session_id)
),

record_counts as (
    select probe, session_id, name, count(*) as n
    from record_calls
    group by all
),

transcript_counts as (
    select probe, session_id, name, count(*) as n
    from transcript_calls
    group by all
),

tool_differences as (
    select
        coalesce(r.probe, t.probe) as probe,
        coalesce(r.session_id, t.session_id) as session_id,
        'tool' as aspect,
        coalesce(r.name, t.name) as item,
        coalesce(r.n, 0)::VARCHAR as records,
        coalesce(t.n, 0)::VARCHAR as transcripts
    from record_counts as r
    full join transcript_counts as t
        on t.probe = r.probe and t.session_id = r.session_id and t.name = r.name
    where coalesce(r.n, 0) <> coalesce(t.n, 0)
),

-- The ids of the calls: records derived from other transcripts can hold the same counts.
id_differences as (
    select
        coalesce(r.probe, t.probe) as probe,
        coalesce(r.session_id, t.session_id) as session_id,
        'tool id' as aspect,
        coalesce(r.tool_use_id, t.tool_use_id) as item,
        coalesce(r.name, 'no call') as records,
        coalesce(t.name, 'no call') as transcripts
    from (select * from record_calls where tool_use_id is not null) as r
    full join (select * from transcript_calls where tool_use_id is not null) as t
        on t.probe = r.probe and t.session_id = r.session_id and t.tool_use_id = r.tool_use_id
    where r.name is distinct from t.name
),

-- The calls both sides hold by id, each with its place among them on either side: a call one side
-- lacks is already a 'tool id' difference, and counted in the places it would shift every later call.
both_calls as (
    select
        r.probe,
        r.session_id,
        r.tool_use_id,
        r.input_keys as record_keys,
        t.input_keys as transcript_keys,
        r.agent_id as record_agent,
        t.agent_id as transcript_agent,
        row_number() over (partition by r.probe, r.session_id order by r.ordinal) as record_place,
        row_number() over (partition by r.probe, r.session_id order by t.ordinal) as transcript_place,
        count(*) over (partition by r.probe, r.session_id) as n
    from record_calls as r
    join transcript_calls as t
        on t.probe = r.probe and t.session_id = r.session_id and t.tool_use_id = r.tool_use_id
),

-- Records are in transcript order (evidence-format.md): a call out of place is a difference.
order_differences as (
    select probe, session_id, 'call order' as aspect, tool_use_id as item,
        format('{} of {}', record_place, n) as records,
        format('{} of {}', transcript_place, n) as transcripts
    from both_calls
    where record_place <> transcript_place
),

agent_differences as (
    select probe, session_id, 'agent id' as aspect, tool_use_id as item,
        coalesce(record_agent, 'none') as records,
        coalesce(transcript_agent, 'none') as transcripts
    from both_calls
    where record_agent is distinct from transcript_agent
),

-- Key names compare sorted: the transcript sorts them, and the format lists them in no order.
key_differences as (
    select probe, session_id, 'input keys' as aspect, tool_use_id as item,
        coalesce(to_json(list_sort(record_keys))::VARCHAR, 'none') as records,
        coalesce(to_json(list_sort(transcript_keys))::VARCHAR, 'none') as transcripts
    from both_calls
    where list_sort(record_keys) is distinct from list_sort(transcript_keys)
),

record_skills as (
    select c.probe, c.session_id, coalesce(list(t.skill order by t.ordinal) filter (where t.skill is not null), []) as skills
    from covered as c
    left join tool_uses as t using (probe, session_id)
    group by all
),

transcript_skills as (
    select c.probe, c.session_id, coalesce(list(t.skill order by t.ordinal) filter (where t.skill is not null), []) as skills
    from covered as c
    left join transcript_tool_uses as t using (session_id)
    group by all
),

skill_differences as (
    select
        r.probe,
        r.session_id,
        'skills' as aspect,
        'call order' as item,
        array_to_string(r.skills, ', ') as records,
        array_to_string(t.skills, ', ') as transcripts
    from record_skills as r
    join transcript_skills as t using (probe, session_id)
    where r.skills <> t.skills
),

-- Each side's answer to the Skill calls of the spawns compared. A call with no answer has a row
-- (is_error and result NULL) but no transcript result; a call naming no skill has neither.
record_results as (
    select c.probe, c.session_id, c.tool_use_id, c.is_error, c.result,
        case when c.is_error is null and c.result is null then 'no answer'
             else format('is_error={} {}', c.is_error, c.result) end as said
    from skill_calls as c
    join covered using (probe, session_id)
),

transcript_results as (
    select c.probe, x.session_id, x.tool_use_id, x.is_error, x.result, format('is_error={} {}', x.is_error, x.result) as said
    from transcript_tool_results as x
    join covered as c using (session_id)
),

-- The verdict's skill conjuncts read the rows: one that claims an answer the transcript lacks, or
-- lacks one it holds (skill_results.jsonl has a row per Skill call that names a skill), differs. A
-- probe without the file lacks them all: deleting it had turned a conjunct's launches into none.
result_differences as (
    select
        coalesce(r.probe, t.probe) as probe,
        coalesce(r.session_id, t.session_id) as session_id,
        'skill result' as aspect,
        coalesce(r.tool_use_id, t.tool_use_id) as item,
        coalesce(r.said, case when exists (select 1 from source_files as f where f.probe = t.probe and f.kind = 'skill_results')
                              then 'no row' else 'no skill_results.jsonl' end) as records,
        coalesce(t.said, 'no answer') as transcripts
    from record_results as r
    full join transcript_results as t
        on t.probe = r.probe and t.session_id = r.session_id and t.tool_use_id = r.tool_use_id
    where case
        when r.tool_use_id is null then true
        when t.tool_use_id is null then r.said <> 'no answer'
        else r.is_error is distinct from t.is_error or r.result is distinct from t.result
    end
),

session_differences as (
    select h.probe, h.session_id, 'session' as aspect, h.file as item,
        format('{} tool call(s)', count(*)) as records, 'no session' as transcripts
    from hollow as h
    join tool_uses as t using (probe, session_id)
    group by all
),

-- Each sub-agent of a spawn compared, named by a result (toolUseResult.agentId) or a progress line's
-- mirror (data.agentId): the calls the records give it; how many its results count (summed over each
-- run of one resumed; NULL unless every result counts them as a whole number); the calls mirrored
-- under it that the records lack; and whether a file of its own is there. Its own file missing,
-- records made from the transcripts lack its calls too.
subagents as (
    select c.probe, c.session_id, a.agent_id,
        (select count(*) from tool_uses as u
         where u.probe = c.probe and u.session_id = c.session_id and u.agent_id = a.agent_id) as records,
        (select case when count(r.tool_uses) = count(*) then sum(r.tool_uses) end
         from transcript_subagent_results as r
         where r.session_id = c.session_id and r.agent_id = a.agent_id) as counted,
        (select count(distinct m.tool_use_id) from transcript_mirrored_calls as m
         where m.session_id = c.session_id and m.agent_id = a.agent_id
           and not exists (select 1 from tool_uses as u
                           where u.probe = c.probe and u.session_id = c.session_id and u.tool_use_id = m.tool_use_id)) as unrecorded,
        exists (select 1 from transcript_sessions as t, unnest(t.files) as f(file)
                where t.session_id = c.session_id
                  and regexp_extract(f.file, '(^|/)agent-([^/]+)\.jsonl$', 2) = a.agent_id) as own_file
    from covered as c
    join (select session_id, agent_id from transcript_subagent_results where agent_id is not null
          union
          select session_id, agent_id from transcript_mirrored_calls where agent_id is not null) as a using (session_id)
),

-- A sub-agent whose calls the records lack: fewer than its results count, a call mirrored under it,
-- or, with no count to go by (none, or no whole number: a background Task's), no file of its own.
subagent_differences as (
    select probe, session_id, 'sub-agent' as aspect, agent_id as item,
        format('{} call(s)', records) as records,
        case when records < counted then format('{} call(s), as its result(s) count them', counted)
             when unrecorded > 0 then format('{} call(s) mirrored that the records lack', unrecorded)
             else 'no file of it, and no result counts its calls' end as transcripts
    from subagents
    where records < counted or unrecorded > 0 or (counted is null and not own_file)
),

-- The files of each spawn: those that hold its lines, and those named for its session (a folder on
-- the path, or the name).
spawn_files as (
    select s.probe, s.session_id, unnest(t.files) as file
    from spawns as s
    join transcript_sessions as t using (session_id)
    union
    select probe, session_id, file from named_files
),

-- Lines of another session in a spawn's file that is not named for that session too. Claude Code
-- writes a session's lines in its own files (a sub-agent's carry its parent's sessionId); a line given
-- another sessionId counts for none of them, and had hidden a Bash call, or the answer to a Skill call.
foreign_differences as (
    select f.probe, f.session_id, 'session' as aspect, f.file as item, 'none' as records,
        format('lines of session {}', to_json(min(o.session_id)))
            || case when count(*) > 1 then format(' and of {} other(s)', count(*) - 1) else '' end as transcripts
    from spawn_files as f
    join (select session_id, unnest(files) as file from transcript_sessions) as o
        on o.file = f.file and o.session_id <> f.session_id
    where not list_contains(string_split(regexp_replace(f.file, '\.jsonl$', ''), '/'), o.session_id)
    group by f.probe, f.session_id, f.file
),

differences as (
    select * from session_differences
    union all
    select * from foreign_differences
    union all
    select * from subagent_differences
    union all
    select * from tool_differences
    union all
    select * from id_differences
    union all
    select * from order_differences
    union all
    select * from agent_differences
    union all
    select * from key_differences
    union all
    select * from skill_differences
    union all
    select * from result_differences
),

final as (
    select s.probe, s.seq, s.arm, s.session_id, 'differ' as verdict, d.aspect, d.item, d.records, d.transcripts
    from differences as d
    join spawns as s using (probe, session_id)
    union all
    select s.probe, s.seq, s.arm, s.session_id,
        case when c.session_id is null then 'gone' else 'agree' end as verdict,
        null, h.file,
        -- A gone spawn's calls are said: a transcript, had there been one, could have contradicted them.
        case when c.session_id is null and n.calls > 0 then format('{} tool call(s)', n.calls) end,
        case when h.file is not null then 'no session' end
    from spawns as s
    left join covered as c using (probe, session_id)
    left join hollow as h using (probe, session_id)
    left join (select probe, session_id, count(*) as calls from tool_uses group by all) as n using (probe, session_id)
    where not exists (select 1 from differences as d where d.probe = s.probe and d.session_id = s.session_id)
)

select * from final
order by probe, seq, aspect nulls first, item, records, transcripts
