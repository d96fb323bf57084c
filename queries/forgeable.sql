-- forgeable: the registered markers and artifacts a spawn's own tool calls could have produced
-- (the K-FM lesson of ADR 0017 (k): a marker a legitimate tool can forge is not a marker).
--
-- What is checked: every artifact the harness found present, and every marker it found. What
-- could have produced one, in the spawn's transcript (sub-agent calls included; failed calls too,
-- since a transcript shows the attempt, not the file; but not a call the spawn's own envelope's
-- permission_denials names, by its id, tool and input (path or command), which never ran: another
-- probe's spawn of the same session is not it):
--   a Write, Edit, MultiEdit or NotebookEdit whose path is the artifact's path, lies under it (a
--   Write makes the folders it writes into), or ends in the marker's file;
--   a Bash command naming the artifact's path (or a path under it), the last segment of the
--   artifact's path or of the marker's file (a relative path is not resolved: `cd out && touch
--   BREACH` could have made out/BREACH), or the marker's token.
-- Every copy of a call counts (transcript_tool_use_copies): a copy that names another tool or
-- input than the first, which the census counts, could have made the file just as well. So does
-- every call a `progress` line mirrors from a sub-agent (transcript_mirrored_calls), which the
-- census never counts: the sub-agent's own file, which holds it, may be missing.
-- Paths are compared as normalised suffixes: backslashes as slashes, repeated slashes as one, '.'
-- and 'x/..' segments dropped, no trailing slash, case folded (the measuring machine's file system may ignore case), and a
-- registered path's leading placeholder ($WS, $HOME, $REPO, ~) dropped, so /private/tmp/x or
-- /Users/me/ws/x matches /tmp/x or $WS/x. A marker's dir is not checked: the transcript's home and
-- repository are not in the records. A relative path (a Write's BREACH, a command's after a cd) is
-- compared by its last segment: the folder it was written in is in no record. In a command, once its
-- quotes are removed, a path or token counts only as a whole word (no letter, digit, '.', '_' or '-'
-- either side).
-- A call of any other tool could have made a file too, unless it is one that writes none (Read,
-- Grep, WebFetch, Skill, …): an MCP server's tool (its resources' too), a tool of a later Claude
-- Code, a block without a name, a sub-agent (Task, Agent, a Skill run forked) whose calls the
-- transcripts do not hold all of, as its result counts them (a cut file, a missing one), or a Skill
-- no result answers (whether it ran forked is unknown: the spawn was stopped in it); its input
-- is not compared, so it makes what its spawn registered unknown, never "not forgeable". So does a
-- call the spawn's tool_use/ records and no copy of its transcript shows: a file of it is missing,
-- or cut short. A skill's own shell lines (`!` in SKILL.md) are the plugin's, not the spawn's calls.
--
-- reads:   spawns, artifacts, markers, permission_denials, tool_uses, transcript_sessions,
--          transcript_tool_uses, transcript_tool_use_copies, transcript_mirrored_calls,
--          transcript_subagent_results
-- params:  none
-- returns: one row per present artifact or found marker that is forgeable, or whose spawn has no
--          transcript, or that records no path (an artifact's, a marker's file) while its spawn
--          wrote a file or ran a command, or whose spawn made a call this check cannot read or whose
--          transcript lacks a recorded call (then whether it is cannot be established: verdict unknown)
--   probe        VARCHAR
--   seq          BIGINT
--   arm          VARCHAR
--   session_id   VARCHAR
--   kind         VARCHAR  artifact | marker
--   ordinal      BIGINT   its position in the row's artifacts or markers
--   label        VARCHAR  its label, e.g. BREACH
--   shown        VARCHAR  as the census shows it: the label, and a marker found outside REPO as LABEL@DIR
--   target       VARCHAR  the artifact's path, or the marker's file, as registered
--   token        VARCHAR  the marker's token (NULL for an artifact)
--   verdict      VARCHAR  forgeable | unknown
--   reason       VARCHAR  why it is unknown: no transcript | missing calls | no path | unread call (NULL when
--                         forgeable)
--   tool         VARCHAR  the first call that could have produced it: its tool name (of the copy that could);
--                         for missing calls or an unread call, the spawn's first such call
--   tool_use_id  VARCHAR  … its id
--   input        VARCHAR  … the path it wrote, or the command it ran (of that copy)
--   calls        BIGINT   how many of the spawn's calls could have produced it (NULL when unknown); a
--                         call of several such copies counts once
-- order:   probe, seq, kind, ordinal
-- The first call is the first in transcript order (by ordinal, then tool_use_id), and of its copies
-- the first that could, a mirror last; then the calls only a mirror shows, by file, line and block.

with

items_listed as (
    select
        probe, session_id, 'artifact' as kind, ordinal, label, label as shown, path as target, null::VARCHAR as token,
        -- The path as a suffix: its placeholder dropped, normalised, starting with '/'.
        '/' || ltrim(lower(rtrim(regexp_replace(replace(regexp_replace(path, '^(\$[A-Za-z_]+|~)/', '/'), '\', '/'), '/+', '/', 'g'), '/')), '/') as suffix
    from artifacts
    where present
    union all
    select
        probe, session_id, 'marker', ordinal, label, case when dir = 'REPO' then label else label || '@' || dir end, file, token,
        '/' || ltrim(lower(rtrim(regexp_replace(replace(file, '\', '/'), '/+', '/', 'g'), '/')), '/')
    from markers
),

-- Each item, with its suffix's last segment (`seg`), and for a command, its suffix, last segment and
-- token without quotes (`q_…`), as a command is matched once its quotes are removed.
items as (
    select *, nullif(regexp_extract(suffix, '[^/]+$'), '') as seg,
           regexp_replace(suffix, '[''"]', '', 'g') as q_suffix,
           nullif(regexp_extract(q_suffix, '[^/]+$'), '') as q_seg,
           nullif(regexp_replace(lower(token), '[''"]', '', 'g'), '') as q_token
    from items_listed
),

-- Each spawn's calls, per probe: a denial is its own spawn's envelope's, not another probe's of the same session.
-- A call's other copies take its ordinal; the counted copy is copy 1. A mirror of a counted call
-- takes its ordinal too, after its copies; one of no counted call has none.
every_call as (
    select
        s.probe, t.session_id, t.ordinal, t.copy, t.tool_use_id, t.name, t.skill, t.agent_id, t.path, t.command,
        {'ordinal': coalesce(t.ordinal, 9223372036854775807), 'copy': coalesce(t.copy, 9223372036854775807),
         'file': t.file, 'rec': t.rec, 'block': t.block, 'id': coalesce(t.tool_use_id, '')} as place,
        coalesce(t.ordinal::VARCHAR, 'mirror ' || coalesce(t.tool_use_id, t.file || ':' || t.rec || ':' || t.block)) as call
    from (
        select session_id, ordinal, 1 as copy, tool_use_id, name, skill, agent_id, path, command, file, rec, block from transcript_tool_uses
        union all
        select c.session_id, u.ordinal, c.copy, c.tool_use_id, c.name, c.skill, c.agent_id, c.path, c.command, c.file, c.rec, c.block
        from transcript_tool_use_copies as c
        join transcript_tool_uses as u using (session_id, tool_use_id)
        union all
        select m.session_id, u.ordinal, null, m.tool_use_id, m.name, m.skill, m.agent_id, m.path, m.command, m.file, m.rec, m.block
        from transcript_mirrored_calls as m
        left join transcript_tool_uses as u using (session_id, tool_use_id)
    ) as t
    join spawns as s using (session_id)
),

-- The calls that name a path or a command, but those denied. A path's '.' segments are dropped and
-- a segment (not '..') followed by '..' with it, three deep (a Write to out/./BREACH or out/x/../BREACH makes
-- out/BREACH); a '..' left over, or a path that starts with neither '/' nor '~' (relative: the folder it is
-- written in is in no record), makes the path `loose`: only its segments' names are compared, an
-- artifact's last segment as any of them (a '..' four deep may have led back into it), a marker's
-- file's as its last. In a command, the same, within a word, once its quotes are removed, as the
-- shell removes them (touch "BRE"ACH makes BREACH; a backslash stays, as in printf 'a\n', and BRE\ACH
-- is not seen, nor is a name built by expansion: $VAR, $(…), {a,b}).
calls as (
    select
        t.*,
        lower(rtrim(case when loose then '/' || p else p end, '/')) as norm_path,
        lower(regexp_replace(regexp_replace(regexp_replace(regexp_replace(
            regexp_replace(regexp_replace(regexp_replace(t.command, '[''"]', '', 'g'), '/+', '/', 'g'), '/(\./)+', '/', 'g'),
            '/([^/.\s][^/\s]*|\.[^/.\s][^/\s]*|\.\.[^/\s]+)/\.\./', '/', 'g'), '/([^/.\s][^/\s]*|\.[^/.\s][^/\s]*|\.\.[^/\s]+)/\.\./', '/', 'g'), '/([^/.\s][^/\s]*|\.[^/.\s][^/\s]*|\.\.[^/\s]+)/\.\./', '/', 'g'),
            '/\.(\s|$)', '\1', 'g')) as norm_command
    from (
        select *,
               regexp_replace(regexp_replace(regexp_replace(
                   regexp_replace(regexp_replace(replace(path, '\', '/'), '/+', '/', 'g') || '/', '/(\./)+', '/', 'g'),
                   '/([^/.][^/]*|\.[^/.][^/]*|\.\.[^/]+)/\.\./', '/', 'g'), '/([^/.][^/]*|\.[^/.][^/]*|\.\.[^/]+)/\.\./', '/', 'g'), '/([^/.][^/]*|\.[^/.][^/]*|\.\.[^/]+)/\.\./', '/', 'g') as p,
               -- A relative path (BREACH, ./BREACH, C:/x) is written where the tool's folder is, which no record says.
               contains(p, '/../') or not regexp_matches(p, '^[/~]') as loose
        from every_call
    ) as t
    where (t.path is not null or t.command is not null)
      and not exists (
          select 1 from permission_denials as d
          -- Of the same tool and input: a copy naming another is no copy, and a denied decoy (another
          -- tool, or the same tool writing elsewhere) had excused every copy of its id.
          where d.probe = t.probe and d.session_id = t.session_id and d.tool_use_id = t.tool_use_id and d.tool_name = t.name
            -- The denied input read as the call's is (omg_path_of_call, omg_command_of_call): a denied Write's
            -- path is its file_path alone, so a notebook_path beside it naming the artifact excuses nothing.
            and (t.command = case when d.tool_name = 'Bash' then json_extract_string(d.tool_input, '$.command') end
                 or t.path = case when d.tool_name = 'NotebookEdit'
                                  then coalesce(json_extract_string(d.tool_input, '$.notebook_path'), json_extract_string(d.tool_input, '$.file_path'))
                                  else coalesce(json_extract_string(d.tool_input, '$.file_path'), json_extract_string(d.tool_input, '$.notebook_path')) end)
      )
),

matches as (
    select i.probe, i.session_id, i.kind, i.ordinal as item, c.place, c.call, c.tool_use_id, c.name, coalesce(c.path, c.command) as input
    from items as i
    join calls as c
        on c.probe = i.probe
        and c.session_id = i.session_id
        and case
            -- A written path: the artifact itself or a path under it; for a marker, its file.
            when c.loose and i.kind = 'artifact' then contains(c.norm_path || '/', '/' || i.seg || '/')
            when c.loose then ends_with(c.norm_path, '/' || i.seg)
            when c.norm_path is not null and i.kind = 'artifact' then
                '/' || ltrim(c.norm_path, '/') = i.suffix
                or ends_with(c.norm_path, i.suffix)
                or contains(c.norm_path, i.suffix || '/')
            when c.norm_path is not null then
                '/' || ltrim(c.norm_path, '/') = i.suffix or ends_with(c.norm_path, i.suffix)
            -- A command: the path (any prefix, then the suffix as a whole word or followed by '/'), or
            -- its last segment as a whole word: a relative path is not resolved (`cd out && touch BREACH`).
            when i.kind = 'artifact' then
                regexp_matches(c.norm_command, '\Q' || i.q_suffix || '\E($|[^a-z0-9._-])')
                or regexp_matches(c.norm_command, '(^|[^a-z0-9._-])\Q' || i.q_seg || '\E($|[^a-z0-9._-])')
            -- … the marker's file's last segment, bare or at the end of a path, or its token.
            else
                regexp_matches(c.norm_command, '(^|[^a-z0-9._-])\Q' || i.q_seg || '\E($|[^a-z0-9._-])')
                or regexp_matches(c.norm_command, '(^|[^a-z0-9._-])\Q' || i.q_token || '\E($|[^a-z0-9._-])')
        end
),

-- Each call that ran a sub-agent, by its result, and whether the transcripts hold every call of its
-- sub-agent: those of its own file (its lines' agentId) and those mirrored under a call that ran it.
-- Per sub-agent, not per result: one resumed ({resume: id}) is run by several calls, whose results
-- count their runs' calls, so together they must find them all. A result with no count, or a call
-- with no result (it never ended, or its file is cut short), has none of this.
subagents as (
    select r.session_id, r.tool_use_id, r.agent_id, a.whole
    from transcript_subagent_results as r
    join (
        select g.session_id, g.agent_id,
               count(g.tool_uses) = count(*) and sum(g.tool_uses) <= (
                   select count(distinct x.id) from (
                       select u.tool_use_id as id from transcript_tool_uses as u
                       where u.session_id = g.session_id and u.agent_id = g.agent_id
                       union all
                       select m.tool_use_id from transcript_mirrored_calls as m
                       where m.session_id = g.session_id
                         and m.parent_tool_use_id in (select r2.tool_use_id from transcript_subagent_results as r2
                                                      where r2.session_id = g.session_id and r2.agent_id = g.agent_id)
                   ) as x) as whole
        from transcript_subagent_results as g
        where g.agent_id is not null
        group by g.session_id, g.agent_id
    ) as a using (session_id, agent_id)
),

-- Each Skill call, each copy by its file and line; a mirror (a progress line) is no file of its own,
-- and names the sub-agent it mirrors. `agree`: every copy of the call, mirrors too, names one skill
-- (a copy naming another could have run it instead).
skill_calls as (
    select *, count(distinct coalesce(skill, '')) over (partition by probe, session_id, tool_use_id) = 1 as agree
    from (select distinct probe, session_id, tool_use_id, skill, agent_id, copy is null as mirror,
                 place.file as file, place.rec as rec
          from every_call
          where name = 'Skill')
),

-- The Skill calls whose first result after them, in their file, shows that they ran inline or were
-- refused (their calls, if any, are the spawn's own), or names a sub-agent whose calls are all there
-- (subagents). Only a result tells: one stopped (interrupted, cancelled, the spawn killed) may have
-- run forked all the same.
skills_answered as (
    select c.probe, c.session_id, c.tool_use_id, c.file, c.rec
    from skill_calls as c
    join transcript_subagent_results as r
        on r.session_id = c.session_id and r.tool_use_id = c.tool_use_id and r.file = c.file and r.rec > c.rec
    left join subagents as s on s.session_id = r.session_id and s.tool_use_id = r.tool_use_id and s.agent_id = r.agent_id
    where not c.mirror
    qualify row_number() over (partition by c.probe, c.session_id, c.tool_use_id, c.file, c.rec order by r.rec) = 1
        and (r.ran_inline or coalesce(s.whole, false))
),

-- The Skill calls that are read: answered as above, when its copies agree; a mirror, when a copy of
-- its call in its sub-agent's own file is (its result is mirrored too, in a progress line this check
-- does not read); or one its own spawn's envelope's permission_denials names by id, tool and skill,
-- which never ran.
skills_read as (
    select c.probe, c.session_id, c.tool_use_id, c.file, c.rec
    from skill_calls as c
    where (c.agree and exists (
              select 1 from skills_answered as a
              join skill_calls as o using (probe, session_id, tool_use_id, file, rec)
              where a.probe = c.probe and a.session_id = c.session_id and a.tool_use_id = c.tool_use_id
                and not o.mirror
                and ((c.mirror and o.agent_id = c.agent_id) or (a.file = c.file and a.rec = c.rec))))
       or exists (select 1 from permission_denials as d
                  where d.probe = c.probe and d.session_id = c.session_id and d.tool_use_id = c.tool_use_id
                    and d.tool_name = 'Skill'
                    and coalesce(json_extract_string(d.tool_input, '$.skill'), json_extract_string(d.tool_input, '$.command')) = c.skill)
),

-- The first call of each spawn that this check cannot read: of a tool that is neither a writer
-- above, nor Bash, nor one that writes no file (an MCP server's tool or resource, a tool of a later
-- version, a block without a name), a sub-agent whose calls are not all there (subagents), or a
-- Skill not read (skills_read). A denial excuses none but a Skill's, as no other's input is compared.
unread as (
    select c.probe, c.session_id, arg_min({'tool': c.name, 'tool_use_id': c.tool_use_id}, c.place) as first
    from every_call as c
    left join subagents as s on s.session_id = c.session_id and s.tool_use_id = c.tool_use_id
    left join skills_read as k
        on k.probe = c.probe and k.session_id = c.session_id and k.tool_use_id = c.tool_use_id
        and k.file = c.place.file and k.rec = c.place.rec
    where c.name is null
       or c.name not in ('Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash', 'Task', 'Agent',
                         'Read', 'NotebookRead', 'Glob', 'Grep', 'LS', 'WebFetch', 'WebSearch', 'TodoWrite', 'TodoRead',
                         'TaskCreate', 'TaskUpdate', 'TaskList', 'TaskGet', 'TaskStop', 'TaskOutput', 'ToolSearch', 'LSP',
                         'Skill', 'SlashCommand', 'AskUserQuestion', 'EnterPlanMode', 'ExitPlanMode', 'BashOutput',
                         'KillShell', 'KillBash')
       or (c.name in ('Task', 'Agent') and not coalesce(s.whole, false))
       or (c.name = 'Skill' and k.tool_use_id is null)
    group by all
),

-- The first call of each spawn that its committed tool_use/ records and no copy of its transcript
-- shows: a file of the transcript is missing (the session's own) or cut short.
missing as (
    select r.probe, r.session_id, arg_min({'tool': r.name, 'tool_use_id': r.tool_use_id}, r.ordinal) as first
    from tool_uses as r
    where r.tool_use_id is not null
      and exists (select 1 from transcript_sessions as t where t.session_id = r.session_id)
      and not exists (select 1 from transcript_tool_uses as u where u.session_id = r.session_id and u.tool_use_id = r.tool_use_id)
      and not exists (select 1 from transcript_mirrored_calls as m where m.session_id = r.session_id and m.tool_use_id = r.tool_use_id)
    group by all
),

firsts as (
    select
        probe, session_id, kind, item,
        arg_min({'tool': name, 'tool_use_id': tool_use_id, 'input': input}, place) as first,
        count(distinct call) as calls
    from matches
    group by all
),

final as (
    select
        s.probe, s.seq, s.arm, s.session_id, i.kind, i.ordinal, i.label, i.shown, i.target, i.token,
        case when f.item is not null then 'forgeable' else 'unknown' end as verdict,
        case
            when f.item is not null then null
            when not exists (select 1 from transcript_sessions as t where t.session_id = i.session_id) then 'no transcript'
            when g.session_id is not null then 'missing calls'
            -- No path (an artifact's, or a marker's file) to compare: any write or command could have made it.
            when i.suffix is null and exists (select 1 from calls as c where c.probe = i.probe and c.session_id = i.session_id) then 'no path'
            when u.session_id is not null then 'unread call'
        end as reason,
        coalesce(f.first.tool, g.first.tool, u.first.tool) as tool,
        coalesce(f.first.tool_use_id, g.first.tool_use_id, u.first.tool_use_id) as tool_use_id,
        f.first.input, f.calls
    from items as i
    join spawns as s using (probe, session_id)
    left join firsts as f on f.probe = i.probe and f.session_id = i.session_id and f.kind = i.kind and f.item = i.ordinal
    left join missing as g on g.probe = i.probe and g.session_id = i.session_id
    left join unread as u on u.probe = i.probe and u.session_id = i.session_id
)

select * from final
where verdict = 'forgeable' or reason is not null
order by probe, seq, kind, ordinal
