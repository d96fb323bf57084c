-- Every file of the probes being loaded, as load/inputs.ts found it: its absolute path, probe,
-- kind (results, tool_use, tool_use_err, skill_results, notes, registration), path within the
-- probe, and the session its name gives (tool_use/ files) or NULL.
-- params: files  JSON text, a list of {abs, probe, kind, rel, session_id}
create or replace table source_files as
select f.abs, f.probe, f.kind, f.rel, f.session_id
from (
  select unnest(from_json($files::JSON,
    '[{"abs":"VARCHAR","probe":"VARCHAR","kind":"VARCHAR","rel":"VARCHAR","session_id":"VARCHAR"}]')) as f
)
