-- The results of the calls that may run a sub-agent (Task, Agent, Skill), in one share of the files
-- that hold such a call (subagents-wanted.sql): for each tool_result block that is its line's only
-- one, the call it answers, its line's toolUseResult.agentId (`agent-<id>.jsonl` is that sub-agent's
-- file) and totalToolUseCount, the calls the sub-agent made, and whether it shows that the call ran
-- no sub-agent (ran_inline): a Skill's toolUseResult {commandName} naming no agentId and no status
-- but "inline", or its refusal before it runs, naming neither (an is_error block whose text is the
-- Skill tool's: "Unknown skill: …", "Invalid skill format …", "Skill … cannot be used with Skill tool
-- due to disable-model-invocation …", "Skill … is not a prompt-based skill").
-- Typed as the pass types a line: a toolUseResult that is a string ("Error: …") names no agentId. A
-- line of several tool_result blocks has one toolUseResult for all: it answers none of them here. A
-- count is a JSON integer, 0 or more; any other is none. A block's text is read for that test alone,
-- and not kept.
-- params: files  the share's files (a lone file twice: the first copy's record numbers are kept)
insert into transcript_subagent_results
with files as (
    -- A file's record numbers count from its own first line, as this scan reads it (mirrors.sql).
    select filename as abs, min(ordinality) as first,
           list({'o': ordinality, 'session_id': sessionId, 'agent_id': toolUseResult.agentId,
                 'tool_uses': toolUseResult.totalToolUseCount,
                 'ran_inline': toolUseResult.agentId is null and coalesce(toolUseResult.status, 'inline') = 'inline'
                               and (toolUseResult.commandName is not null
                                    or len(list_filter(message.content, x -> x.type = 'tool_result' and x.is_error
                                           and regexp_matches(x.content, '^\s*(<tool_use_error>)?\s*(Unknown skill: |Invalid skill format|Skill \S+ (cannot be used with Skill tool due to disable-model-invocation|is not a prompt-based skill))'))) = 1),
                 'content': list_transform(message.content, x -> {'type': x.type, 'tool_use_id': x.tool_use_id})})
               filter (where type = 'user' and len(list_filter(message.content, x -> x.type = 'tool_result')) = 1) as results
    from read_json($files, format = 'newline_delimited', records = true, ignore_errors = true, filename = true,
                   hive_partitioning = false, maximum_object_size = 268435456,
                   columns = {type: 'VARCHAR', sessionId: 'VARCHAR',
                              toolUseResult: 'STRUCT(agentId VARCHAR, totalToolUseCount JSON, commandName VARCHAR, status VARCHAR)',
                              message: 'STRUCT(content STRUCT(type VARCHAR, tool_use_id VARCHAR, is_error BOOLEAN, content VARCHAR)[])'})
         with ordinality
    group by filename
),

lines as (
    select w.file, l.o - m.first + 1 as rec, coalesce(l.session_id, w.session_id) as session_id, l.agent_id,
           l.tool_uses, coalesce(l.ran_inline, false) as ran_inline, l.content
    from (select abs, first, unnest(results) as l from files) as m
    join transcript_subagent_files as w using (abs)
    where l.o - m.first + 1 <= w.n
)

select session_id, b.tool_use_id, agent_id,
       case when json_type(tool_uses) in ('UBIGINT', 'BIGINT') and tool_uses::BIGINT >= 0 then tool_uses::BIGINT end as tool_uses,
       ran_inline, file, rec
from (select *, unnest(content) as b from lines)
where b.type = 'tool_result'
  and b.tool_use_id in (select tool_use_id from transcript_tool_uses where name in ('Task', 'Agent', 'Skill'));
