-- The first registration record or note, by file and line, longer than $limit bytes: a registration
-- is a few lines of JSON, and a record that large (a pilot list of millions) would cost seconds to
-- build tables from before its checks could refuse it.
-- params: limit  the most bytes a record of these kinds may hold
select file, rec, strlen(json::VARCHAR) as size
from records
where kind in ('registration', 'notes') and strlen(json::VARCHAR) > $limit
order by file, rec
limit 1
