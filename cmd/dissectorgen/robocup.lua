
-- The HL standard team message (robocup.humanoid.Message) ------------------------------
--
-- A protobuf reader driven by the ROBOCUP table (the message's descriptors): it reads
-- what proto/robocup's Decode reads and recognises the message as robocup.Looks does (the
-- standard's fields with their wire types, nothing else below 101, and a message that
-- parses), so a team port shows it after dnet and zju as "dnetwork decode" does. Fields
-- are named dnetwork.robocup.message.<path> (protobuf's JSON names, metres, radians),
-- plus team_number, colour, bitbots.*, nubots_purposes.* and unknown_bytes as decode
-- prints them. Field 101 is Bit-Bots' float with wire type 5 and NUbots' Purposes with
-- wire type 2.

local p_robocup = Proto("dnetwork_robocup", "RoboCup HL standard team message")
local rc = registry("dnetwork.robocup")
local RC_KIND = { bool = "bool", enum = "string", int32 = "i32", sint32 = "i32", sfixed32 = "i32",
	int64 = "i64", sint64 = "i64", sfixed64 = "i64", uint32 = "u32", fixed32 = "u32", uint64 = "u64",
	fixed64 = "u64", float = "f32", double = "f64", string = "string", bytes = "bytes" }

local function rc_declare(mname, prefix, depth)
	assert(depth < 10, "dnetwork.lua: robocup messages nest too deep")
	for _, f in pairs(ROBOCUP.messages[mname]) do
		local name = prefix .. f.name
		if f.message then
			rc.get(name, f.message == ROBOCUP.timestamp and "time" or "none")
			rc_declare(f.message, name .. ".", depth + 1)
		else
			rc.get(name, RC_KIND[f.kind])
		end
	end
end
rc.get("version", "string")
rc.get("message", "none")
rc_declare(ROBOCUP.root, "message.", 0)
rc.get("team_number", "u32")
rc.get("colour", "string")
rc.get("unknown_bytes", "u32")
rc.get("unknown_field", "u32")
rc.get("bitbots", "none")
local RC_BITBOTS = {} -- the Bit-Bots field numbers in order
for num, n in pairs(ROBOCUP.bitbots) do
	rc.get("bitbots." .. n, ROBOCUP.bitbots_floats[num] and "f32" or "u32")
	RC_BITBOTS[#RC_BITBOTS + 1] = num
end
table.sort(RC_BITBOTS)
rc.get("nubots_purposes", "none")
rc.get("nubots_purposes.player_id", "u32")
rc.get("nubots_purposes.purpose", "u32")
local ef_rc_wire = ProtoExpert.new("dnetwork.robocup.wire_type", "Field with another wire type than the .proto's (kept as unknown)",
	expert.group.PROTOCOL, expert.severity.WARN)
local ef_rc_time = ProtoExpert.new("dnetwork.robocup.bad_timestamp", "Timestamp outside protobuf's range",
	expert.group.PROTOCOL, expert.severity.WARN)
p_robocup.fields = rc.list
p_robocup.experts = { ef_rc_wire, ef_rc_time }

-- The reader: from here to rc_int32 it uses nothing of Wireshark (testdata/robocup_check.lua
-- runs it on a standalone Lua).

local RC_FIXED = { [1] = 8, [5] = 4 } -- bytes of the fixed wire types

-- The field numbers of current_pose, its team and player_id.
local RC_POSE, RC_TEAM, RC_PLAYER
for num, f in pairs(ROBOCUP.messages[ROBOCUP.root]) do
	if f.name == "current_pose" then
		RC_POSE = num
		for n2, g in pairs(ROBOCUP.messages[f.message]) do
			if g.name == "team" then
				RC_TEAM = n2
			elseif g.name == "player_id" then
				RC_PLAYER = n2
			end
		end
	end
end

-- rc_varint reads the varint at index i of s (at most up to e): its low and high 32 bits
-- and the index after it; nil when it is truncated or overflows 64 bits.
local function rc_varint(s, i, e)
	local lo, hi = 0, 0
	for k = 0, 9 do
		if i + k > e then
			return nil
		end
		local b = s:byte(i + k)
		local v = b % 128
		if k < 4 then
			lo = lo + v * 2 ^ (7 * k)
		elseif k == 4 then
			lo = lo + (v % 16) * 2 ^ 28
			hi = math.floor(v / 16)
		else
			hi = hi + v * 2 ^ (7 * k - 32)
		end
		if b < 128 then
			if k == 9 and b > 1 then
				return nil
			end
			return lo, hi, i + k + 1
		end
	end
	return nil
end

-- rc_tag reads a field's tag: number, wire type and the index after it; nil when bad.
local function rc_tag(s, i, e)
	local lo, hi, j = rc_varint(s, i, e)
	if not lo or hi ~= 0 or lo < 8 then
		return nil
	end
	return math.floor(lo / 8), lo % 8, j
end

-- rc_skip returns the index after the value of wire type w at index i, nil when it is
-- malformed; a group is read up to its end tag without recursion.
local function rc_skip(s, i, e, num, w)
	local open = {}
	while true do
		if w == 0 then
			local lo, _, j = rc_varint(s, i, e)
			if not lo then
				return nil
			end
			i = j
		elseif RC_FIXED[w] then
			i = i + RC_FIXED[w]
		elseif w == 2 then
			local n, h, j = rc_varint(s, i, e)
			if not n or h ~= 0 then
				return nil
			end
			i = j + n
		elseif w == 3 then
			open[#open + 1] = num
		elseif w == 4 then
			if open[#open] ~= num then
				return nil
			end
			open[#open] = nil
		else
			return nil
		end
		if i > e + 1 then
			return nil
		end
		if #open == 0 then
			return i
		end
		num, w, i = rc_tag(s, i, e)
		if not num then
			return nil
		end
	end
end

-- rc_parse reads the fields of a message of type mname (nil: unknown, only checked) in
-- s[i..e]: a list of {num, wire, at, vat, vend, def, sub, lo, hi}, nil when malformed.
-- A known field of another wire type is kept as unknown (mismatch), as protobuf does.
local function rc_parse(s, i, e, mname, depth)
	local schema = mname and ROBOCUP.messages[mname]
	local out = {}
	while i <= e do
		local f = { at = i }
		local j
		f.num, f.wire, j = rc_tag(s, i, e)
		if not f.num then
			return nil
		end
		f.vat = j
		if f.wire == 0 then
			f.lo, f.hi = rc_varint(s, j, e)
		elseif f.wire == 2 then
			local _, _, k = rc_varint(s, j, e)
			f.vat = k
		end
		j = rc_skip(s, j, e, f.num, f.wire)
		if not j then
			return nil
		end
		f.vend = j - 1
		f.def = schema and schema[f.num]
		local def = f.def
		if def and def.wire ~= f.wire then
			if def.repeated and def.wire ~= 2 and f.wire == 2 then
				f.packed = true
			else
				f.def, f.mismatch = nil, true
			end
		end
		if f.packed then -- the elements must fill the bytes
			local k = f.vat
			while k <= f.vend do
				k = rc_skip(s, k, f.vend, f.num, def.wire)
				if not k then
					return nil
				end
			end
		end
		if f.def and f.def.message then
			f.sub = rc_parse(s, f.vat, f.vend, f.def.message, depth + 1)
			if not f.sub then
				return nil
			end
		end
		out[#out + 1] = f
		i = j
	end
	return out
end

-- rc_extension reads a field above the standard's as robocup.Decode does into m; false
-- when the message is malformed.
local function rc_extension(s, f, m)
	local bb = ROBOCUP.bitbots[f.num]
	if f.num == ROBOCUP.purposes and f.wire == 2 then
		local list = rc_parse(s, f.vat, f.vend, nil, 0)
		if not list then
			return false
		end
		local g = { field = f }
		for _, x in ipairs(list) do
			if x.num == 1 and x.wire == 2 then
				local pl = rc_parse(s, x.vat, x.vend, nil, 0)
				if not pl then
					return false
				end
				local pu = { field = x }
				for _, y in ipairs(pl) do
					if (y.num == 1 or y.num == 2) and y.wire == 0 then
						pu[y.num] = y
					end
				end
				g[#g + 1] = pu
			end
		end
		m.purposes = m.purposes or {}
		m.purposes[#m.purposes + 1] = g
		f.ext = "NUbots purposes"
		return true
	end
	if not bb then
		return true
	end
	local float = ROBOCUP.bitbots_floats[f.num]
	if bb == "other_robot_confidence" and (f.wire == 5 or f.wire == 2) then
		if (f.vend - f.vat + 1) % 4 ~= 0 then
			return false
		end
		m.bitbots = m.bitbots or { confidence = {} }
		for k = f.vat, f.vend, 4 do
			m.bitbots.confidence[#m.bitbots.confidence + 1] = k
		end
		f.ext = "Bit-Bots " .. bb
	elseif (float and f.wire == 5) or (not float and f.wire == 0) then
		m.bitbots = m.bitbots or { confidence = {} }
		m.bitbots[bb] = f
		f.ext = "Bit-Bots " .. bb
	end
	return true
end

-- rc_read reads a datagram as a standard message; nil when it is none.
local function rc_read(s)
	if #s == 0 then
		return nil
	end
	local fields = rc_parse(s, 1, #s, ROBOCUP.root, 0)
	if not fields then
		return nil
	end
	local m = { fields = fields, unknown = 0 }
	for _, f in ipairs(fields) do
		if not f.def then
			if f.num <= ROBOCUP.standard_max or not rc_extension(s, f, m) then
				return nil
			end
			m.unknown = m.unknown + f.vend - f.at + 1
		elseif f.num == RC_POSE then
			for _, g in ipairs(f.sub) do
				if g.def and g.num == RC_TEAM then
					m.team = g
				elseif g.def and g.num == RC_PLAYER then
					m.player = g.lo
				end
			end
		end
	end
	return m
end

-- rc_int32 is a varint's value as an int32 (enums, int32).
local function rc_int32(lo)
	return lo >= 2 ^ 31 and lo - 2 ^ 32 or lo
end

-- rc_scalar adds one value of field def (named name) at index i of s.
local function rc_scalar(tvb, tree, s, def, name, i, lo, hi)
	local k = def.kind
	if def.wire ~= 0 then
		local n = RC_FIXED[def.wire]
		if n then
			return tree:add_le(rc.get(name), tvb(i - 1, n)), i + n
		end
		return tree:add(rc.get(name), tvb(i - 1, lo)), i + lo -- string, bytes: lo is the length
	end
	local j
	if not lo then
		lo, hi, j = rc_varint(s, i, #s)
	else
		j = i
		while s:byte(j) >= 128 do
			j = j + 1
		end
		j = j + 1
	end
	local r = tvb(i - 1, j - i)
	if k == "enum" then
		local v = rc_int32(lo)
		local n = ROBOCUP.enums[def.enum][v]
		local item = tree:add(rc.get(name), r, n or string.format("%d", v))
		if n then
			item:append_text(string.format(" (%d)", v))
		end
		return item, j
	elseif k == "bool" then
		return tree:add(rc.get(name), r, lo ~= 0 or hi ~= 0), j
	elseif k == "uint32" then
		return tree:add(rc.get(name), r, lo), j
	elseif k == "int32" then
		return tree:add(rc.get(name), r, rc_int32(lo)), j
	elseif k == "sint32" then
		return tree:add(rc.get(name), r, lo % 2 == 0 and lo / 2 or -(lo + 1) / 2), j
	elseif k == "uint64" then
		return tree:add(rc.get(name), r, UInt64.new(lo, hi)), j
	elseif k == "sint64" then -- zigzag: n/2 or -(n+1)/2
		local half = Int64.new(math.floor(lo / 2) + (hi % 2) * 2 ^ 31, math.floor(hi / 2))
		return tree:add(rc.get(name), r, lo % 2 == 0 and half or -(half + 1)), j
	end
	return tree:add(rc.get(name), r, Int64.new(lo, hi)), j -- int64
end

-- rc_time adds a google.protobuf.Timestamp field f as a time (seconds, nanos below).
local function rc_time(tvb, tree, f, name)
	local secs, nanos = 0, 0
	for _, g in ipairs(f.sub) do
		if g.def and g.num == 1 then
			secs = g.hi >= 2 ^ 31 and (g.hi - 2 ^ 32) * 2 ^ 32 + g.lo or g.hi * 2 ^ 32 + g.lo
		elseif g.def and g.num == 2 then
			nanos = rc_int32(g.lo)
		end
	end
	local ok = secs >= -62135596800 and secs <= 253402300799 and nanos >= 0 and nanos < 1e9
	local item = tree:add(rc.get(name), tvb(f.vat - 1, f.vend - f.vat + 1), NSTime.new(ok and secs or 0, ok and nanos or 0))
	if not ok then
		item:add_proto_expert_info(ef_rc_time, string.format("seconds %d, nanos %d: decode rejects the message", secs, nanos))
	end
	return item
end

-- rc_tree adds the fields of a parsed message of type mname under tree.
local function rc_tree(tvb, tree, s, fields, prefix)
	for _, f in ipairs(fields) do
		local def = f.def
		if not def then
			local item = tree:add(rc.get("unknown_field"), tvb(f.at - 1, f.vend - f.at + 1), f.num)
			item:append_text(string.format(" (wire type %d, %d bytes%s)", f.wire, f.vend - f.at + 1, f.ext and ": " .. f.ext or ""))
			if f.mismatch then
				item:add_proto_expert_info(ef_rc_wire)
			end
		else
			local name = prefix .. def.name
			if def.message == ROBOCUP.timestamp then
				rc_tree(tvb, rc_time(tvb, tree, f, name), s, f.sub, name .. ".")
			elseif def.message then
				local sub = tree:add(rc.get(name), tvb(f.vat - 1, f.vend - f.vat + 1))
				rc_tree(tvb, sub, s, f.sub, name .. ".")
			elseif f.packed then
				local k = f.vat
				while k <= f.vend do
					local _, j = rc_scalar(tvb, tree, s, def, name, k)
					k = j
				end
			elseif def.wire == 2 then
				rc_scalar(tvb, tree, s, def, name, f.vat, f.vend - f.vat + 1)
			else
				rc_scalar(tvb, tree, s, def, name, f.vat, f.lo, f.hi)
			end
		end
	end
end

-- rc_named adds a uint32 extension value with its name from the team's .proto.
local function rc_named(tree, name, r, v, names)
	local item = tree:add(rc.get(name), r, v)
	if names[v] then
		item:append_text(" (" .. names[v] .. ")")
	end
	return item
end

local function dissect_robocup(tvb, pinfo, tree)
	local s = tvb:raw()
	local m = rc_read(s)
	if not m then
		return 0
	end
	pinfo.cols.protocol = "RoboCup HL"
	local root = tree:add(p_robocup, tvb())
	add(root, rc, "version", tvb(0, 0), ROBOCUP.root):set_generated()
	rc_tree(tvb, root:add(rc.get("message"), tvb()), s, m.fields, "message.")
	-- current_pose.team read both ways, as decode prints it
	local team, tr = 0, tvb(0, 0)
	if m.team then
		team, tr = m.team.lo, tvb(m.team.at - 1, m.team.vend - m.team.at + 1)
	end
	local colour = ROBOCUP.enums[ROBOCUP.team_enum][0]
	if team == 1 or team == 2 then
		colour = ROBOCUP.enums[ROBOCUP.team_enum][team]
	end
	add(root, rc, "team_number", tr, team):set_generated()
	add(root, rc, "colour", tr, colour):set_generated()
	local ext = ""
	local bb = m.bitbots
	if bb then
		ext = ", Bit-Bots"
		local sub = root:add(rc.get("bitbots"), tvb(0, 0))
		sub:set_text("Bit-Bots extension")
		for _, num in ipairs(RC_BITBOTS) do
			local n = ROBOCUP.bitbots[num]
			local f, name = bb[n], "bitbots." .. n
			if n == "other_robot_confidence" then
				for _, k in ipairs(bb.confidence) do
					sub:add_le(rc.get(name), tvb(k - 1, 4))
				end
			elseif f and ROBOCUP.bitbots_floats[num] then
				local item = sub:add_le(rc.get(name), tvb(f.vat - 1, 4))
				if n == "time_to_ball" and tvb(f.vat - 1, 4):le_float() == ROBOCUP.time_to_ball_unknown then
					item:append_text(" (unknown)")
				end
			elseif f then
				rc_named(sub, name, tvb(f.vat - 1, f.vend - f.vat + 1), f.lo, ROBOCUP.names[n])
			else -- not on the wire: the proto3 zero value, as decode prints it
				add(sub, rc, name, tvb(0, 0), 0):set_generated()
			end
		end
	end
	for _, g in ipairs(m.purposes or {}) do
		ext = ", NUbots"
		local sub = root:add(rc.get("nubots_purposes"), tvb(g.field.vat - 1, g.field.vend - g.field.vat + 1))
		sub:set_text(string.format("NUbots purposes: %d", #g))
		for _, pu in ipairs(g) do
			local x = pu.field
			local pt = sub:add(tvb(x.vat - 1, x.vend - x.vat + 1), "Purpose")
			for num, n in ipairs({ "player_id", "purpose" }) do
				local y, name = pu[num], "nubots_purposes." .. n
				local item
				if y then
					item = rc_named(pt, name, tvb(y.vat - 1, y.vend - y.vat + 1), y.lo, n == "purpose" and ROBOCUP.names.purpose or {})
				else
					item = rc_named(pt, name, tvb(0, 0), 0, n == "purpose" and ROBOCUP.names.purpose or {})
					item:set_generated()
				end
			end
		end
	end
	add(root, rc, "unknown_bytes", tvb(0, 0), m.unknown):set_generated()
	local state = ""
	for _, f in ipairs(m.fields) do
		if f.def and f.def.enum and f.def.name == "state" then
			state = " " .. (ROBOCUP.enums[f.def.enum][rc_int32(f.lo)] or string.format("state %d", rc_int32(f.lo)))
		end
	end
	local what = string.format("player %d team %d%s%s", m.player or 0, team, state, ext)
	root:append_text(", " .. what)
	pinfo.cols.info = "robocup " .. what
	return tvb:len()
end

function p_robocup.dissector(tvb, pinfo, tree)
	return dissect_robocup(tvb, pinfo, tree)
end

-- Last on a team port: it has no magic and no fixed size.
TEAM_FORMATS[#TEAM_FORMATS + 1] = { name = "robocup", dissect = dissect_robocup }
