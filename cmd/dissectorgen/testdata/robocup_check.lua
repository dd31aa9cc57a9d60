-- Runs the protobuf reader of a generated dnetwork.lua (arg[1]) outside Wireshark, with the
-- Lua it is started with. Reads one datagram in hex per line from stdin and prints per line
-- "-" when the reader does not take it as a standard message, else the unknown bytes, the
-- team field, the player, the Bit-Bots role, action, offensive side and number of
-- confidences (or "none") and the NUbots purposes (or "none").
local src = io.open(arg[1]):read("a")
local tables = assert(src:match("(local ROBOCUP = .-)%-%- Bit operations"), "no ROBOCUP table")
local reader = assert(src:match("(%-%- The reader:.-)%-%- rc_int32 is"), "no reader section")
local check = [[
for line in io.lines() do
	local s = (line:gsub("%x%x", function(h) return string.char(tonumber(h, 16)) end))
	local m = rc_read(s)
	if not m then
		print("-")
	else
		local bb, pu = "none", {}
		if m.bitbots then
			local v = {}
			for _, num in ipairs({ 105, 106, 107 }) do
				local f = m.bitbots[ROBOCUP.bitbots[num] ]
				v[#v + 1] = string.format("%d", f and f.lo or 0)
			end
			bb = table.concat(v, ",") .. string.format(",c%d", #m.bitbots.confidence)
		end
		for _, g in ipairs(m.purposes or {}) do
			for _, p in ipairs(g) do
				pu[#pu + 1] = string.format("%d:%d", p[1] and p[1].lo or 0, p[2] and p[2].lo or 0)
			end
		end
		print(string.format("%d %d %d %s %s", m.unknown, m.team and m.team.lo or 0, m.player or 0,
			bb, m.purposes and ("[" .. table.concat(pu, ",") .. "]") or "none"))
	end
end
]]
assert(load(tables .. reader .. check, "robocup", "t"))()
