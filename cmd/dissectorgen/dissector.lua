-- The dissectors. They read the tables above; a format is one table there plus one
-- section here. Every protocol has its own Proto ("dnetwork_gc", ...), so "Decode As"
-- offers each, and its fields are named dnetwork.<proto>.<key>, where <key> is the member
-- "dnetwork decode" prints (nested members joined with dots, array elements repeated).

-- fields ---------------------------------------------------------------------------

-- LABELS are the labels of the fields whose name's last component is not one.
local LABELS = { src = "source address", ["txp_timestamp.sec"] = "txp_timestamp sec",
	["txp_timestamp.nsec"] = "txp_timestamp nsec", ["recv_timestamp.sec"] = "recv_timestamp sec",
	["recv_timestamp.nsec"] = "recv_timestamp nsec", ["echo.player"] = "echo player",
	["echo.stamp_ms"] = "echo stamp_ms", ["echo.hold"] = "echo hold" }

-- registry makes the ProtoFields of one Proto: get(name, kind) returns the field of that
-- name, making it the first time. All fields are made at load time (Proto.fields cannot
-- grow later), by walking the tables below.
local function registry(prefix)
	local r = { byname = {}, list = {} }
	local makers = {
		u8 = ProtoField.uint8, u16 = ProtoField.uint16, u32 = ProtoField.uint32,
		i16 = ProtoField.int16, f32 = ProtoField.float, f64 = ProtoField.double,
		bool = ProtoField.bool, string = ProtoField.string, bytes = ProtoField.bytes,
		ipv4 = ProtoField.ipv4, hex16 = ProtoField.uint16, hex32 = ProtoField.uint32,
		i32 = ProtoField.int32, i64 = ProtoField.int64, u64 = ProtoField.uint64, none = ProtoField.none,
	}
	-- mask: the bits of the field in a 1-byte (nibble) or 2-byte (flag16, u16) word
	function r.get(name, kind, mask)
		local f = r.byname[name]
		if f then
			return f
		end
		assert(kind, "dnetwork.lua: field " .. prefix .. "." .. name .. " was not declared")
		-- the label is the last component of the name: "teams.players.penalty" -> "Penalty"
		local label = (LABELS[name] or name:match("[^.]*$")):gsub("_", " "):gsub("^%l", string.upper)
		if kind == "time" then
			f = ProtoField.absolute_time(prefix .. "." .. name, label, base.UTC)
		elseif kind == "flag16" then
			f = ProtoField.bool(prefix .. "." .. name, label, 16, nil, mask)
		elseif kind == "nibble" then
			f = ProtoField.uint8(prefix .. "." .. name, label, base.DEC, nil, mask)
		elseif mask then
			f = makers[kind](prefix .. "." .. name, label, base.DEC, nil, mask)
		end
		if f then
			r.byname[name] = f
			r.list[#r.list + 1] = f
			return f
		end
		local make = assert(makers[kind], "dnetwork.lua: kind " .. kind)
		if kind == "hex16" or kind == "hex32" then
			f = make(prefix .. "." .. name, label, base.HEX)
		elseif kind:match("^[ui]%d") then
			f = make(prefix .. "." .. name, label, base.DEC)
		else
			f = make(prefix .. "." .. name, label)
		end
		r.byname[name] = f
		r.list[#r.list + 1] = f
		return f
	end
	return r
end

local function name_of(names, v)
	local n = names[v]
	if n == nil then
		return ""
	end
	return n
end

local function colour_name(v)
	return COLOURS[v] or string.format("colour(%d)", v)
end

-- add puts a value item for field name of reg under tree; the name item of an enum
-- (key "<name>_name", generated) goes under it.
local function add(tree, reg, name, range, value)
	if value == nil then
		return tree:add(reg.get(name), range)
	end
	return tree:add(reg.get(name), range, value)
end

local function add_name(item, reg, name, range, text)
	local sub = item:add(reg.get(name .. "_name"), range, text)
	sub:set_generated()
	if text ~= "" then
		item:append_text(" (" .. text .. ")")
	end
	return sub
end

local function f32le(tvb, off)
	return tvb(off, 4):le_float()
end

local function f64le(tvb, off)
	return tvb(off, 8):le_float()
end

-- GameController control packets ----------------------------------------------------

local p_gc = Proto("dnetwork_gc", "RoboCup GameController")
local gc = registry("dnetwork.gc")
local gc_enum = { state = "states", game_phase = "game_phases", set_play = "set_plays",
	secondary_state = "set_plays", penalty = "penalties" }
local gc_colour = { team_colour = true, field_player_colour = true, goalkeeper_colour = true }

local function gc_declare(fields, prefix)
	for _, f in ipairs(fields) do
		local name = prefix .. f.name
		local kind = f.kind
		if kind == "bytes" and f.name ~= "coach_message" then
			kind = "u8" -- secondary_state_info: one item per byte, as decode prints it
		end
		if f.name == "version" then
			kind = "u16" -- uint8 (SPL, HSL) or uint16 (HL)
		end
		gc.get(name, kind)
		if gc_enum[f.name] or gc_colour[f.name] then
			gc.get(name .. "_name", "string")
		end
	end
end
for _, l in ipairs(GC_LAYOUTS) do
	gc_declare(l.header, "")
	gc_declare(l.team, "teams.")
	gc_declare(l.robot, "teams.players.")
	gc_declare(l.robot, "teams.coach.")
end
gc.get("header", "string")
gc.get("layout", "string")
local ef_gc_size = ProtoExpert.new("dnetwork.gc.bad_size", "Wrong size for the version",
	expert.group.MALFORMED, expert.severity.ERROR)
local ef_gc_version = ProtoExpert.new("dnetwork.gc.bad_version", "Unknown version",
	expert.group.MALFORMED, expert.severity.ERROR)
local ef_gc_range = ProtoExpert.new("dnetwork.gc.out_of_range", "Value the version does not define",
	expert.group.PROTOCOL, expert.severity.WARN)
p_gc.fields = gc.list
p_gc.experts = { ef_gc_size, ef_gc_version, ef_gc_range }

-- gc_fields adds the fields of a block at base (named prefix .. name) and returns their
-- values by name.
local function gc_fields(tvb, tree, base, fields, l, prefix)
	local v = {}
	for _, f in ipairs(fields) do
		local off = base + f.off
		local name = prefix .. f.name
		if f.kind == "bytes" and f.name == "coach_message" then
			add(tree, gc, name, tvb(off, f.size))
		elseif f.kind == "bytes" then
			for i = 0, f.size - 1 do
				add(tree, gc, name, tvb(off + i, 1), tvb(off + i, 1):uint())
			end
		else
			local r = tvb(off, f.size)
			local x
			if f.kind == "u8" or f.kind == "bool" then
				x = r:uint()
			elseif f.kind == "u16" then
				x = r:le_uint()
			else
				x = r:le_int()
			end
			v[f.name] = x
			local item
			if f.kind == "bool" then
				item = add(tree, gc, name, r, x ~= 0)
				if x > 1 then
					item:add_proto_expert_info(ef_gc_range, string.format("%s is %d, want 0 or 1", f.name, x))
				end
			else
				item = add(tree, gc, name, r, x)
			end
			if gc_enum[f.name] then
				local n = name_of(l[gc_enum[f.name]], x)
				add_name(item, gc, name, r, n)
				if n == "" then
					item:add_proto_expert_info(ef_gc_range,
						string.format("%s %d is not defined in %s", f.name, x, l.name))
				end
			elseif gc_colour[f.name] then
				add_name(item, gc, name, r, colour_name(x))
			end
		end
	end
	return v
end

-- gc_layout returns the layout of a control packet, or nil and the reason.
local function gc_layout(tvb)
	local n, v = tvb:len(), tvb(4, 1):uint()
	local sizes = {}
	for _, l in ipairs(GC_LAYOUTS) do
		if l.version == v then
			if l.size == n and (l.family ~= "hl" or tvb(5, 1):uint() == 0) then
				return l
			end
			sizes[#sizes + 1] = tostring(l.size)
		end
	end
	if #sizes == 0 then
		return nil, ef_gc_version, string.format("unknown version %d (%d bytes)", v, n)
	end
	return nil, ef_gc_size, string.format("version %d needs %s bytes, got %d", v, table.concat(sizes, ", "), n)
end

local function gc_robot(tvb, tree, off, l, label, prefix)
	local sub = tree:add(tvb(off, l.robot_size), label)
	local v = gc_fields(tvb, sub, off, l.robot, l, prefix)
	if v.penalty ~= 0 then
		sub:append_text(string.format(": %s, %d s", name_of(l.penalties, v.penalty), v.secs_till_unpenalised))
	end
end

local function dissect_gc(tvb, pinfo, tree)
	if tvb:len() < 5 then
		return 0
	end
	local magic = tvb(0, 4):string()
	if magic ~= MAGIC.control and magic ~= MAGIC.monitor then
		return 0
	end
	pinfo.cols.protocol = "RoboCup GC"
	local root = tree:add(p_gc, tvb())
	add(root, gc, "header", tvb(0, 4), magic)
	local l, ef, why = gc_layout(tvb)
	if not l then
		add(root, gc, "version", tvb(4, 1), tvb(4, 1):uint())
		root:add_proto_expert_info(ef, why)
		pinfo.cols.info = magic .. " " .. why
		return tvb:len()
	end
	root:append_text(string.format(", %s, %s", l.name, magic))
	add(root, gc, "layout", tvb(4, l.family == "hl" and 2 or 1), l.name):set_generated()
	local h = gc_fields(tvb, root, 0, l.header, l, "")
	local scores = {}
	for t = 0, 1 do
		local base = l.teams_off + t * l.team_size
		local tt = root:add(tvb(base, l.team_size), string.format("Team %d", t))
		local tv = gc_fields(tvb, tt, base, l.team, l, "teams.")
		tt:append_text(string.format(": %d, score %d", tv.team_number, tv.score))
		scores[#scores + 1] = string.format("%d:%d", tv.team_number, tv.score)
		if l.coach_off >= 0 then
			gc_robot(tvb, tt, base + l.coach_off, l, "Coach", "teams.coach.")
		end
		local players = tt:add(tvb(base + l.players_off, l.players * l.robot_size), "Players")
		for i = 0, l.players - 1 do
			gc_robot(tvb, players, base + l.players_off + i * l.robot_size, l, string.format("Player %d", i + 1), "teams.players.")
		end
	end
	pinfo.cols.info = string.format("%s %s #%d %s, %s", magic, l.name, h.packet_number,
		name_of(l.states, h.state), table.concat(scores, " "))
	return tvb:len()
end

function p_gc.dissector(tvb, pinfo, tree)
	return dissect_gc(tvb, pinfo, tree)
end

-- Return packets ("RGrt") --------------------------------------------------------------

-- RETURN_PARTS names the elements of the arrays of return packet v4.
local RETURN_PARTS = { pose = { "mm (x)", "mm (y)", "rad (theta)" }, ball_age = { "s" }, ball = { "mm (x)", "mm (y)" } }

local p_rgrt = Proto("dnetwork_rgrt", "RoboCup GameController return")
local rgrt = registry("dnetwork.rgrt")
rgrt.get("header", "string")
rgrt.get("version", "u8")
for _, r in pairs(RETURN_VERSIONS) do
	for _, f in ipairs(r.fields) do
		rgrt.get(f.name, f.kind)
	end
end
rgrt.get("message_name", "string")
local ef_rgrt_size = ProtoExpert.new("dnetwork.rgrt.bad_size", "Wrong size for the version",
	expert.group.MALFORMED, expert.severity.ERROR)
local ef_rgrt_range = ProtoExpert.new("dnetwork.rgrt.out_of_range", "Value the GameController rejects",
	expert.group.PROTOCOL, expert.severity.WARN)
p_rgrt.fields = rgrt.list
p_rgrt.experts = { ef_rgrt_size, ef_rgrt_range }

local function dissect_rgrt(tvb, pinfo, tree)
	if tvb:len() < 5 or tvb(0, 4):string() ~= MAGIC["return"] then
		return 0
	end
	pinfo.cols.protocol = "RoboCup GC return"
	local root = tree:add(p_rgrt, tvb())
	add(root, rgrt, "header", tvb(0, 4), tvb(0, 4):string())
	local v = tvb(4, 1):uint()
	local vi = add(root, rgrt, "version", tvb(4, 1), v)
	local r = RETURN_VERSIONS[v]
	if not r then
		vi:add_proto_expert_info(ef_rgrt_size, string.format("unknown return packet version %d", v))
		return tvb:len()
	end
	if tvb:len() ~= r.size then
		root:add_proto_expert_info(ef_rgrt_size,
			string.format("return packet version %d needs %d bytes, got %d", v, r.size, tvb:len()))
		return tvb:len()
	end
	local vals, seen = {}, {}
	for _, f in ipairs(r.fields) do
		local rg = tvb(f.off, f.size)
		local x
		if f.kind == "f32" then
			x = rg:le_float()
		else
			x = rg:uint()
		end
		vals[f.name] = x
		local item
		if f.kind == "bool" then
			item = add(root, rgrt, f.name, rg, x ~= 0)
		else
			item = add(root, rgrt, f.name, rg, x)
		end
		seen[f.name] = (seen[f.name] or 0) + 1
		if RETURN_PARTS[f.name] then
			item:append_text(" " .. RETURN_PARTS[f.name][seen[f.name]])
		end
		if f.name == "message" then
			local n = name_of(r.messages, x)
			add_name(item, rgrt, "message", rg, n)
			if n == "" then
				item:add_proto_expert_info(ef_rgrt_range, string.format("message %d is not defined in version %d", x, v))
			end
		end
	end
	local player = vals.player or vals.player_num
	if player < 1 or player > MAX_RETURN_PLAYER then
		root:add_proto_expert_info(ef_rgrt_range, string.format("player %d outside 1..%d", player, MAX_RETURN_PLAYER))
	end
	root:append_text(string.format(", v%d, team %d player %d", v, vals.team or vals.team_num, player))
	pinfo.cols.info = string.format("RGrt v%d team %d player %d", v, vals.team or vals.team_num, player)
	return tvb:len()
end

function p_rgrt.dissector(tvb, pinfo, tree)
	return dissect_rgrt(tvb, pinfo, tree)
end

-- Monitor channel: request ("RGTr" to 3636) and forwarded status messages (3940) -----

local p_rgtr = Proto("dnetwork_rgtr", "RoboCup GameController monitor request")
local rgtr = registry("dnetwork.rgtr")
rgtr.get("header", "string")
rgtr.get("version", "u8")
local ef_rgtr = ProtoExpert.new("dnetwork.rgtr.bad", "Monitor request the GameController ignores",
	expert.group.MALFORMED, expert.severity.ERROR)
p_rgtr.fields = rgtr.list
p_rgtr.experts = { ef_rgtr }

function p_rgtr.dissector(tvb, pinfo, tree)
	if tvb:len() < 4 or tvb(0, 4):string() ~= MAGIC.request then
		return 0
	end
	pinfo.cols.protocol = "RoboCup GC monitor"
	pinfo.cols.info = "RGTr monitor request"
	local root = tree:add(p_rgtr, tvb())
	add(root, rgtr, "header", tvb(0, 4), MAGIC.request)
	if tvb:len() >= 5 then
		local v = tvb(4, 1):uint()
		local item = add(root, rgtr, "version", tvb(4, 1), v)
		if v ~= MONITOR_REQUEST.version then
			item:add_proto_expert_info(ef_rgtr, string.format("version %d, want %d", v, MONITOR_REQUEST.version))
		end
	end
	if tvb:len() ~= MONITOR_REQUEST.size then
		root:add_proto_expert_info(ef_rgtr, string.format("%d bytes, want %d", tvb:len(), MONITOR_REQUEST.size))
	end
	return tvb:len()
end

local p_fwd = Proto("dnetwork_fwd", "RoboCup GameController forwarded status")
local fwd = registry("dnetwork.fwd")
fwd.get("host", "ipv4")
local ef_fwd = ProtoExpert.new("dnetwork.fwd.short", "Shorter than the source address",
	expert.group.MALFORMED, expert.severity.ERROR)
local ef_fwd_other = ProtoExpert.new("dnetwork.fwd.not_return", "Status message that is not a return packet",
	expert.group.MALFORMED, expert.severity.ERROR)
p_fwd.fields = fwd.list
p_fwd.experts = { ef_fwd, ef_fwd_other }

function p_fwd.dissector(tvb, pinfo, tree)
	local root = tree:add(p_fwd, tvb())
	if tvb:len() < FORWARD_PREFIX then
		root:add_proto_expert_info(ef_fwd, string.format("%d bytes", tvb:len()))
		return tvb:len()
	end
	root:add(fwd.get("host"), tvb(0, FORWARD_PREFIX))
	root:append_text(", from " .. tostring(tvb(0, FORWARD_PREFIX):ipv4()))
	if tvb:len() == FORWARD_PREFIX then
		root:add_proto_expert_info(ef_fwd_other, "empty status message")
	else
		local inner = tvb(FORWARD_PREFIX):tvb()
		if dissect_rgrt(inner, pinfo, tree) == 0 then
			root:add(inner(), "Status message (not a return packet)")
			root:add_proto_expert_info(ef_fwd_other)
		end
	end
	pinfo.cols.protocol = "RoboCup GC forward"
	pinfo.cols.info = "forwarded from " .. tostring(tvb(0, FORWARD_PREFIX):ipv4()) .. ": " .. tostring(pinfo.cols.info)
	return tvb:len()
end

-- Team messages: zju and dnet (and what joins them in TEAM_FORMATS) -------------------

-- team_declare declares the fields of a zju or dnet table in reg.
local function team_declare(reg, fields)
	for _, f in ipairs(fields) do
		local k, n = f.kind, f.name
		if k == "u8" or k == "u16" or k == "u32" or k == "f32" or k == "bool" then
			reg.get(n, k)
		elseif k == "nibble" then
			reg.get(n, "nibble", bit.lshift(0x0f, f.shift or 0))
		elseif k == "rostime" then
			reg.get(n .. ".sec", "u32")
			reg.get(n .. ".nsec", "u32")
		elseif k == "stamp" then
			reg.get(n .. ".sec", "f64")
			reg.get(n .. ".nsec", "u32")
		elseif k == "vec3" then
			for _, c in ipairs({ "x", "y", "z" }) do
				reg.get(n .. "." .. c, "f64")
			end
		elseif k == "pose" then
			for _, c in ipairs({ "x", "y", "theta" }) do
				reg.get(n .. "." .. c, "f64")
			end
		elseif k == "point" or k == "voronoi" then
			reg.get(n .. ".x", "f64")
			reg.get(n .. ".y", "f64")
		elseif k == "duration" or k == "quality" then
			reg.get(n, "f64")
		elseif k == "bools" or k == "mask" then
			reg.get(n, "bool")
		elseif k == "status" then
			reg.get(n, "hex16")
			for i, b in ipairs(f.bits) do
				reg.get(b, "flag16", bit.lshift(1, i - 1))
			end
			reg.get("voronoi_count", "u16", bit.lshift(0x7, #f.bits))
		end
		if f.enum then
			reg.get(n .. "_name", "string")
		end
	end
end

local ENUMS = { role = ROLE_NAMES, play_state = PLAY_STATE_NAMES }

local function scaled(q, f)
	if q == f.unknown then
		return 0 / 0
	end
	return q / f.scale
end

local function sign12(v)
	if v >= 0x800 then
		return v - 0x1000
	end
	return v
end

-- team_fields adds the fields of a zju or dnet table; body is the length the fields may
-- use (dnet version 1 has no echo). It returns the plain values by name.
local function team_fields(tvb, tree, reg, fields, body)
	local v = {}
	for _, f in ipairs(fields) do
		if f.off + f.size <= body and not (f.name:match("^echo%.") and v["echo.player"] == 0 and f.name ~= "echo.player") then
			local k, n, r = f.kind, f.name, tvb(f.off, f.size)
			local item
			if k == "u8" or k == "u16" or k == "u32" then
				v[n] = r:le_uint()
				if n ~= "echo.player" or v[n] ~= 0 then
					item = add(tree, reg, n, r, v[n])
				end
			elseif k == "bool" then
				v[n] = r:uint()
				item = add(tree, reg, n, r, v[n] ~= 0)
			elseif k == "f32" then
				add(tree, reg, n, r, r:le_float())
			elseif k == "nibble" then
				v[n] = bit.band(bit.rshift(r:uint(), f.shift or 0), 0x0f)
				item = tree:add(reg.get(n), r)
			elseif k == "rostime" then
				local sub = tree:add(r, n)
				add(sub, reg, n .. ".sec", tvb(f.off, 4), tvb(f.off, 4):le_uint())
				add(sub, reg, n .. ".nsec", tvb(f.off + 4, 4), tvb(f.off + 4, 4):le_uint())
			elseif k == "stamp" then
				local ms = tvb(f.off, 4):le_uint() + tvb(f.off + 4, 2):le_uint() * 4294967296
				local sub = tree:add(r, string.format("%s: %d ms", n, ms))
				add(sub, reg, n .. ".sec", r, math.floor(ms / 1000))
				add(sub, reg, n .. ".nsec", r, (ms % 1000) * 1000000)
			elseif k == "vec3" then
				local sub = tree:add(r, n)
				for i, c in ipairs({ "x", "y", "z" }) do
					add(sub, reg, n .. "." .. c, tvb(f.off + 8 * (i - 1), 8), f64le(tvb, f.off + 8 * (i - 1)))
				end
			elseif k == "pose" or k == "point" then
				local sub = tree:add(r, n)
				local cs = k == "pose" and { "x", "y", "theta" } or { "x", "y" }
				for i, c in ipairs(cs) do
					local q = tvb(f.off + 2 * (i - 1), 2)
					local x = q:le_int()
					local val = c == "theta" and (x == f.unknown and 0 / 0 or x / f.angle_scale) or scaled(x, f)
					local it = add(sub, reg, n .. "." .. c, q, val)
					it:append_text(x == f.unknown and " (unknown)" or (c == "theta" and " rad" or " m"))
				end
			elseif k == "duration" or k == "quality" then
				local q = r:le_uint()
				local it = add(tree, reg, n, r, scaled(q, f))
				it:append_text(q == f.unknown and " (unknown)" or (k == "duration" and " s" or ""))
			elseif k == "bools" then
				for i = 0, f.count - 1 do
					add(tree, reg, n, tvb(f.off + i, 1), tvb(f.off + i, 1):uint() ~= 0)
				end
			elseif k == "mask" then
				local m = r:uint()
				for i = 0, f.count - 1 do
					add(tree, reg, n, r, bit.band(m, bit.lshift(1, i)) ~= 0):append_text(string.format(" [%d]", i))
				end
			elseif k == "status" then
				local s = r:le_uint()
				item = add(tree, reg, n, r, s)
				for _, b in ipairs(f.bits) do
					item:add_le(reg.get(b), r)
				end
				v.voronoi_count = bit.band(bit.rshift(s, #f.bits), 0x7)
				item:add_le(reg.get("voronoi_count"), r)
			elseif k == "voronoi" then
				local sub = tree:add(r, string.format("%s: %d points", n, v.voronoi_count or 0))
				for i = 0, math.min(v.voronoi_count or 0, f.count) - 1 do
					local o = f.off + 3 * i
					local b0, b1, b2 = tvb(o, 1):uint(), tvb(o + 1, 1):uint(), tvb(o + 2, 1):uint()
					local x = sign12(b0 + bit.lshift(bit.band(b1, 0x0f), 8))
					local y = sign12(bit.rshift(b1, 4) + bit.lshift(b2, 4))
					add(sub, reg, n .. ".x", tvb(o, 2), scaled(x, f))
					add(sub, reg, n .. ".y", tvb(o + 1, 2), scaled(y, f))
				end
			end
			if f.enum and item then
				add_name(item, reg, n, r, ENUMS[f.enum][v[n]] or string.format("%s(%d)", f.enum, v[n]))
			end
		end
	end
	return v
end

-- zju

local p_zju = Proto("dnetwork_zju", "ZJUDancer TeamInfo")
local zju = registry("dnetwork.zju")
zju.get("version", "string")
team_declare(zju, ZJU.fields)
p_zju.fields = zju.list

local function dissect_zju(tvb, pinfo, tree)
	if tvb:len() ~= ZJU.size then
		return 0
	end
	pinfo.cols.protocol = "ZJU TeamInfo"
	local root = tree:add(p_zju, tvb())
	add(root, zju, "version", tvb(0, 0), ZJU.revision):set_generated()
	local v = team_fields(tvb, root, zju, ZJU.fields, ZJU.size)
	root:append_text(string.format(", team %d player %d", v.team_number, v.player_number))
	pinfo.cols.info = string.format("zju team %d player %d", v.team_number, v.player_number)
	return tvb:len()
end

function p_zju.dissector(tvb, pinfo, tree)
	return dissect_zju(tvb, pinfo, tree)
end

-- dnet

local p_dnet = Proto("dnetwork_dnet", "dnetwork TeamInfo (dnet)")
p_dnet.prefs.key = Pref.string("Key", "", "The team's shared key (dnetwork decode --auth-key): checks the tags")
local dnet = registry("dnetwork.dnet")
dnet.get("magic", "string")
team_declare(dnet, DNET.fields)
dnet.get("tagged", "bool")
dnet.get("checked", "bool")
dnet.get("tag", "bytes")
dnet.get("authenticated", "bool")
dnet.get("checksum", "hex32")
local ef_dnet_crc = ProtoExpert.new("dnetwork.dnet.bad_checksum", "Bad CRC-32C",
	expert.group.CHECKSUM, expert.severity.ERROR)
local ef_dnet_size = ProtoExpert.new("dnetwork.dnet.bad_size", "Wrong size for the version and flags",
	expert.group.MALFORMED, expert.severity.ERROR)
local ef_dnet_bad = ProtoExpert.new("dnetwork.dnet.bad", "Packet the node rejects",
	expert.group.MALFORMED, expert.severity.ERROR)
local ef_dnet_unchecked = ProtoExpert.new("dnetwork.dnet.unchecked", "Neither tag nor checksum",
	expert.group.SECURITY, expert.severity.NOTE)
local ef_dnet_tag = ProtoExpert.new("dnetwork.dnet.tag_unverified", "Tag not checked (preference dnetwork_dnet.key)",
	expert.group.SECURITY, expert.severity.CHAT)
local ef_dnet_bad_tag = ProtoExpert.new("dnetwork.dnet.bad_tag", "Tag does not match the key",
	expert.group.SECURITY, expert.severity.ERROR)
local ef_dnet_no_tag = ProtoExpert.new("dnetwork.dnet.no_tag", "No tag, but a key is set",
	expert.group.SECURITY, expert.severity.WARN)
p_dnet.fields = dnet.list
p_dnet.experts = { ef_dnet_crc, ef_dnet_size, ef_dnet_bad, ef_dnet_unchecked, ef_dnet_tag, ef_dnet_bad_tag, ef_dnet_no_tag }

-- dnet_tag_ok reports whether the tag at body matches the key string.
local function dnet_tag_ok(tvb, body, key)
	local k, msg = {}, {}
	for i = 1, #key do
		k[i] = key:byte(i)
	end
	for i = 0, body - 1 do
		msg[i + 1] = tvb(i, 1):uint()
	end
	local mac = sha.hmac(k, msg)
	for i = 0, DNET.tag_size - 1 do
		if mac[i + 1] ~= tvb(body + i, 1):uint() then
			return false
		end
	end
	return true
end

local function dissect_dnet(tvb, pinfo, tree)
	if tvb:len() < #DNET.magic or tvb(0, #DNET.magic):string() ~= DNET.magic then
		return 0
	end
	pinfo.cols.protocol = "dnet"
	local root = tree:add(p_dnet, tvb())
	add(root, dnet, "magic", tvb(0, #DNET.magic), DNET.magic)
	if tvb:len() < DNET.header_size then
		root:add_proto_expert_info(ef_dnet_size, string.format("%d bytes are shorter than the header", tvb:len()))
		return tvb:len()
	end
	local version, hf = tvb(DNET.version_off, 1):uint(), tvb(DNET.flags_off, 1):uint()
	local body = DNET.body_size[version]
	if not body then
		add(root, dnet, "version", tvb(DNET.version_off, 1), version)
			:add_proto_expert_info(ef_dnet_bad, string.format("unknown dnet version %d", version))
		return tvb:len()
	end
	local tagged = bit.band(hf, DNET.flag_tagged) ~= 0
	local checked = bit.band(hf, DNET.flag_checked) ~= 0
	if bit.band(hf, DNET.flags_reserved) ~= 0 or (tagged and checked) then
		root:add_proto_expert_info(ef_dnet_bad, string.format("reserved header flags %#04x", hf))
		return tvb:len()
	end
	local want = body
	if tagged then
		want = body + DNET.tag_size
	elseif checked then
		want = body + DNET.crc_size
	end
	if tvb:len() ~= want then
		root:add_proto_expert_info(ef_dnet_size,
			string.format("dnet version %d with header flags %#04x needs %d bytes, got %d", version, hf, want, tvb:len()))
		return tvb:len()
	end
	local v = team_fields(tvb, root, dnet, DNET.fields, body)
	add(root, dnet, "tagged", tvb(DNET.flags_off, 1), tagged):set_generated()
	local good = false
	local key = p_dnet.prefs.key
	if tagged then
		local item = add(root, dnet, "tag", tvb(body, DNET.tag_size))
		if key == "" then
			item:add_proto_expert_info(ef_dnet_tag)
		else
			local ok = dnet_tag_ok(tvb, body, key)
			add(root, dnet, "authenticated", tvb(body, DNET.tag_size), ok):set_generated()
			if not ok then
				item:add_proto_expert_info(ef_dnet_bad_tag)
			end
		end
	elseif checked then
		local got, sum = tvb(body, DNET.crc_size):le_uint(), crc32c(tvb, 0, body)
		local item = add(root, dnet, "checksum", tvb(body, DNET.crc_size), got)
		good = got == sum
		if good then
			item:append_text(" [correct]")
		else
			item:append_text(string.format(" [incorrect, should be 0x%08x]", sum))
			item:add_proto_expert_info(ef_dnet_crc, string.format("CRC-32C 0x%08x, the bytes give 0x%08x", got, sum))
		end
	else
		root:add_proto_expert_info(ef_dnet_unchecked)
	end
	if not tagged and key ~= "" then
		root:add_proto_expert_info(ef_dnet_no_tag)
	end
	add(root, dnet, "checked", tvb(DNET.flags_off, 1), good):set_generated()
	local how = tagged and "tagged" or (checked and (good and "crc ok" or "BAD CRC") or "unchecked")
	root:append_text(string.format(", v%d, team %d player %d, seq %d, %s", version, v.team_number, v.player_number, v.seq, how))
	pinfo.cols.info = string.format("dnet v%d team %d player %d seq %d %s", version, v.team_number, v.player_number, v.seq, how)
	return tvb:len()
end

function p_dnet.dissector(tvb, pinfo, tree)
	return dissect_dnet(tvb, pinfo, tree)
end

-- TEAM_FORMATS lists the team message formats in the order they are tried on a team
-- port: one entry per format (match by magic first, by size next; robocup.lua appends
-- the standard protobuf, recognised by its fields, last).
local TEAM_FORMATS = {
	{ name = "dnet", dissect = dissect_dnet },
	{ name = "zju", dissect = dissect_zju },
}

local p_team = Proto("dnetwork_team", "RoboCup team message")
function p_team.dissector(tvb, pinfo, tree)
	for _, f in ipairs(TEAM_FORMATS) do
		local n = f.dissect(tvb, pinfo, tree)
		if n > 0 then
			return n
		end
	end
	return 0
end

-- Fawkes world info ----------------------------------------------------------------------

-- wi_key derives the AES key of a key string as Fawkes does: its bytes, a NUL, zeros.
local function wi_key(str)
	local k = {}
	for i = 0, WORLDINFO.key_size - 1 do
		k[i] = i < #str and str:byte(i + 1) or 0
	end
	return aes.expand(k)
end

-- wi_open decrypts a datagram and strips the padding; nil when the length or padding is
-- wrong (another key, or not world info).
local function wi_open(tvb, w)
	local n = tvb:len()
	if n == 0 or n % 16 ~= 0 or n > WORLDINFO.max_ciphertext then
		return nil
	end
	local out = {}
	for o = 0, n - 1, 16 do
		local s = {}
		for i = 0, 15 do
			s[i] = tvb(o + i, 1):uint()
		end
		aes.decrypt(s, w)
		for i = 0, 15 do
			out[o + i + 1] = s[i]
		end
	end
	local pad = out[n]
	if pad < 1 or pad > 16 then
		return nil
	end
	for i = n - pad + 1, n do
		if out[i] ~= pad then
			return nil
		end
	end
	local hex = {}
	for i = 1, n - pad do
		hex[i] = string.format("%02x", out[i])
	end
	return ByteArray.new(table.concat(hex)):tvb("Decrypted world info")
end

local p_wi = Proto("dnetwork_wi", "Fawkes world info")
p_wi.prefs.key = Pref.string("Key", WORLDINFO.default_key, "The world info key string (Fawkes' worldmodel.yaml)")
local wi_round_keys, wi_key_string = nil, nil
local wi = registry("dnetwork.wi")
wi.get("magic", "hex16")
wi.get("version", "u8")
wi.get("reserved", "u8")
wi.get("seq", "u32")
wi.get("encrypted", "bool")
wi.get("plain_length", "u32")
wi.get("records.offset", "u16")
wi.get("records.type", "u16")
wi.get("records.type_name", "string")
wi.get("records.size", "u16")
local ef_wi = ProtoExpert.new("dnetwork.wi.bad", "Record a receiver skips or a truncated datagram",
	expert.group.MALFORMED, expert.severity.WARN)
local ef_wi_key = ProtoExpert.new("dnetwork.wi.undecryptable", "Does not decrypt with the key (preference dnetwork_wi.key)",
	expert.group.SECURITY, expert.severity.WARN)
p_wi.fields = wi.list
p_wi.experts = { ef_wi, ef_wi_key }

local function wi_plain(tvb)
	return tvb:len() >= WORLDINFO.header_size and tvb(0, 2):uint() == WORLDINFO.magic and tvb(2, 1):uint() == WORLDINFO.version
end

local function dissect_wi(tvb, pinfo, tree)
	if wi_key_string ~= p_wi.prefs.key then
		wi_key_string, wi_round_keys = p_wi.prefs.key, wi_key(p_wi.prefs.key)
	end
	local n = tvb:len()
	pinfo.cols.protocol = "Fawkes worldinfo"
	local root = tree:add(p_wi, tvb())
	-- as dnetwork decode: decrypt first; a datagram that does not decrypt but starts
	-- with the header is plaintext
	local ptvb, encrypted = wi_open(tvb, wi_round_keys), true
	if not ptvb and wi_plain(tvb) then
		ptvb, encrypted = tvb, false
	end
	if not ptvb or not wi_plain(ptvb) then
		root:add_proto_expert_info(ef_wi_key, string.format("%d bytes do not decrypt to world info with key %q", n, p_wi.prefs.key))
		pinfo.cols.info = string.format("worldinfo?, %d bytes, not decrypted", n)
		return n
	end
	local pn = ptvb:len()
	add(root, wi, "encrypted", tvb(0, 0), encrypted):set_generated()
	add(root, wi, "plain_length", ptvb(), pn):set_generated()
	add(root, wi, "magic", ptvb(0, 2), WORLDINFO.magic)
	add(root, wi, "version", ptvb(2, 1), ptvb(2, 1):uint())
	add(root, wi, "reserved", ptvb(3, 1), ptvb(3, 1):uint())
	local seq = ptvb(4, 4):uint()
	add(root, wi, "seq", ptvb(4, 4), seq)
	-- walk the records; the first of two adjacent type-10 ball records is a Fawkes
	-- sender's relative ball
	local recs, off = {}, WORLDINFO.header_size
	while pn - off >= WORLDINFO.record_header_size do
		local t, size = ptvb(off, 2):uint(), ptvb(off + 2, 2):uint()
		if pn - off - WORLDINFO.record_header_size < size then
			break
		end
		recs[#recs + 1] = { off = off, type = t, size = size }
		off = off + WORLDINFO.record_header_size + size
	end
	local rel, tens = nil, 0
	for i, r in ipairs(recs) do
		if r.type == WORLDINFO.global_ball and r.size == WORLDINFO.ball_size then
			tens = tens + 1
			if tens == 1 then
				rel = i
			elseif tens == 2 and i ~= rel + 1 then
				rel = nil
			end
		end
	end
	if tens ~= 2 then
		rel = nil
	end
	for i, r in ipairs(recs) do
		local name = WORLDINFO.types[r.type] or string.format("type_%d", r.type)
		if i == rel then
			name = WORLDINFO.types[WORLDINFO.rel_ball]
		end
		local rt = root:add(ptvb(r.off, WORLDINFO.record_header_size + r.size), "Record " .. name)
		add(rt, wi, "records.offset", ptvb(r.off, WORLDINFO.record_header_size), r.off):set_generated()
		add(rt, wi, "records.type", ptvb(r.off, 2), r.type)
		add(rt, wi, "records.type_name", ptvb(r.off, 2), name):set_generated()
		local si = add(rt, wi, "records.size", ptvb(r.off + 2, 2), r.size)
		local want = WORLDINFO.sizes[r.type]
		if want == nil then
			si:add_proto_expert_info(ef_wi, string.format("unknown type %d, %d bytes skipped", r.type, r.size))
		elseif want ~= r.size then
			si:add_proto_expert_info(ef_wi, string.format("%s body needs %d bytes, got %d", name, want, r.size))
		end
	end
	if off < pn then
		root:add_proto_expert_info(ef_wi, string.format("truncated record at offset %d, %d bytes ignored", off, pn - off))
	end
	root:append_text(string.format(", seq %d, %d records%s", seq, #recs, encrypted and "" or ", plaintext"))
	pinfo.cols.info = string.format("worldinfo seq %d, %d records", seq, #recs)
	return n
end

function p_wi.dissector(tvb, pinfo, tree)
	return dissect_wi(tvb, pinfo, tree)
end

-- Registration -----------------------------------------------------------------------

local udp = DissectorTable.get("udp.port")
udp:add(PORTS.control, p_gc)
udp:add(PORTS["return"], p_rgrt)
udp:add(PORTS.request, p_rgtr)
udp:add(PORTS.forward, p_fwd)
udp:add(PORTS.worldinfo, p_wi)
for port = PORTS.team_first, PORTS.team_last do
	udp:add(port, p_team)
end

-- The formats with a magic are also found on any other port.
local function heuristic(dissect)
	return function(tvb, pinfo, tree)
		return dissect(tvb, pinfo, tree) > 0
	end
end
p_gc:register_heuristic("udp", heuristic(dissect_gc))
p_rgrt:register_heuristic("udp", heuristic(dissect_rgrt))
p_dnet:register_heuristic("udp", heuristic(dissect_dnet))
