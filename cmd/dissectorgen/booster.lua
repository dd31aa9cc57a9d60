
-- Booster robots: TeamCommunicationMsg and TeamDiscoveryMsg (BOOSTER) ------------------
-- Fields are named dnetwork.booster.<key> and dnetwork.booster_discovery.<key> after
-- "dnetwork decode"'s keys and labelled with the member names of the vendor's header;
-- values in m and rad as on the wire. Ports: the unicast 30000+team and discovery
-- 20000+team of each team, and the team port 10000+team (2026 branch) beside dnet and
-- zju, where the magic decides; both packets are also found on any other port by their
-- magic and size.

do
	-- booster_registry makes the fields of one packet from its layouts: the label is the
	-- header's member name, the description gives the unit.
	local function booster_registry(prefix, kind)
		local r = { byname = {}, list = {} }
		local function field(name, f, label, desc)
			if r.byname[name] then
				return
			end
			local abbr = prefix .. "." .. name
			local pf
			if f == "i32" then
				pf = ProtoField.int32(abbr, label, base.DEC, nil, nil, desc)
			elseif f == "bool" then
				pf = ProtoField.bool(abbr, label, base.NONE, nil, nil, desc)
			elseif f == "f64" then
				pf = ProtoField.double(abbr, label, desc)
			elseif f == "bytes" then
				pf = ProtoField.bytes(abbr, label, base.NONE, desc)
			else
				pf = ProtoField.string(abbr, label, base.ASCII, desc)
			end
			r.byname[name] = pf
			r.list[#r.list + 1] = pf
		end
		function r.get(name)
			return assert(r.byname[name], "dnetwork.lua: field " .. prefix .. "." .. name .. " was not declared")
		end
		field("version", "string", "Revision", "Layout of the packet, told by its size")
		for _, l in pairs(kind.layouts) do
			for _, f in ipairs(l.fields) do
				local unit = f.unit and (", " .. f.unit) or ""
				if f.kind == "point" or f.kind == "pose" then
					for i, c in ipairs({ "x", "y", f.kind == "pose" and "theta" or "z" }) do
						local u = (i == 3 and f.kind == "pose") and ", rad" or unit
						field(f.name .. "." .. c, "f64", f.member .. "." .. c, f.member .. "." .. c .. u)
					end
				elseif f.kind == "padding" then
					field(f.name, "bytes", "Padding", "Alignment bytes, ignored")
				else
					field(f.name, f.kind, f.member, f.member .. unit)
				end
				if f.enum then
					field(f.name .. "_name", "string", f.member .. " name", "The vendor's name of " .. f.member)
				end
			end
		end
		return r
	end

	local function expert_set(prefix, what)
		return {
			size = ProtoExpert.new(prefix .. ".bad_size", "Wrong size for a " .. what,
				expert.group.MALFORMED, expert.severity.ERROR),
			magic = ProtoExpert.new(prefix .. ".bad_magic", "Wrong validation magic for a " .. what,
				expert.group.MALFORMED, expert.severity.ERROR),
			bool = ProtoExpert.new(prefix .. ".bad_bool", "Bool byte neither 0 nor 1 (receivers drop the packet)",
				expert.group.MALFORMED, expert.severity.ERROR),
			range = ProtoExpert.new(prefix .. ".out_of_range", "Value the revision does not define",
				expert.group.PROTOCOL, expert.severity.WARN),
		}
	end

	local kinds = {
		message = { spec = BOOSTER.message, prefix = "dnetwork.booster", what = "TeamCommunicationMsg",
			column = "Booster", info = "booster", proto = Proto("dnetwork_booster", "Booster TeamCommunicationMsg") },
		discovery = { spec = BOOSTER.discovery, prefix = "dnetwork.booster_discovery", what = "TeamDiscoveryMsg",
			column = "Booster discovery", info = "booster discovery",
			proto = Proto("dnetwork_booster_discovery", "Booster TeamDiscoveryMsg") },
	}
	for _, k in pairs(kinds) do
		k.reg = booster_registry(k.prefix, k.spec)
		k.ef = expert_set(k.prefix, k.what)
		k.proto.fields = k.reg.list
		k.proto.experts = { k.ef.size, k.ef.magic, k.ef.bool, k.ef.range }
		local sizes = {}
		for n in pairs(k.spec.layouts) do
			sizes[#sizes + 1] = n
		end
		table.sort(sizes)
		k.sizes = table.concat(sizes, " or ")
	end

	-- booster_fields adds the fields of layout l and returns the plain values by name.
	local function booster_fields(tvb, root, k, l)
		local v = {}
		for _, f in ipairs(l.fields) do
			local r = tvb(f.off, f.size)
			local item
			if f.kind == "i32" then
				v[f.name] = r:le_int()
				item = add(root, k.reg, f.name, r, v[f.name])
				if f.magic and v[f.name] ~= f.magic then
					v.bad = "BAD MAGIC"
					item:add_proto_expert_info(k.ef.magic, string.format("%s is %d, want %d", f.member, v[f.name], f.magic))
				end
			elseif f.kind == "bool" then
				local x = r:uint()
				item = add(root, k.reg, f.name, r, x ~= 0)
				if x > 1 then
					item:append_text(string.format(" (byte %d)", x))
					v.bad = v.bad or "BAD BOOL"
					item:add_proto_expert_info(k.ef.bool, string.format("%s is %d, want 0 or 1", f.member, x))
				end
			elseif f.kind == "f64" then
				item = add(root, k.reg, f.name, r, r:le_float())
				if f.unit then
					item:append_text(" " .. f.unit)
				end
			elseif f.kind == "point" or f.kind == "pose" then
				local sub = root:add(r, f.member)
				for i, c in ipairs({ "x", "y", f.kind == "pose" and "theta" or "z" }) do
					local q = tvb(f.off + 8 * (i - 1), 8)
					local it = add(sub, k.reg, f.name .. "." .. c, q, q:le_float())
					it:append_text((i == 3 and f.kind == "pose") and " rad" or (" " .. f.unit))
					sub:append_text(string.format("%s %s=%g", i == 1 and ":" or ",", c, q:le_float()))
				end
			elseif f.kind == "padding" then
				add(root, k.reg, f.name, r)
			end
			if f.enum == "role" then
				local n = l.roles[v[f.name]]
				add_name(item, k.reg, f.name, r, n or BOOSTER.undefined_role)
				if not n then
					item:add_proto_expert_info(k.ef.range,
						string.format("%s %d is not defined in revision %s", f.member, v[f.name], l.version))
				end
			end
		end
		return v
	end

	-- booster_dissect dissects tvb as packet kind k, flagging a wrong size or magic.
	local function booster_dissect(tvb, pinfo, tree, k)
		local n = tvb:len()
		pinfo.cols.protocol = k.column
		local root = tree:add(k.proto, tvb())
		local l = k.spec.layouts[n]
		if not l then
			if n >= 4 then
				local m = tvb(0, 4):le_int()
				local item = add(root, k.reg, "validation", tvb(0, 4), m)
				if m ~= k.spec.magic then
					item:add_proto_expert_info(k.ef.magic, string.format("validation is %d, want %d", m, k.spec.magic))
				end
			end
			root:add_proto_expert_info(k.ef.size, string.format("%s needs %s bytes, got %d", k.what, k.sizes, n))
			pinfo.cols.info = string.format("%s? %d bytes", k.info, n)
			return n
		end
		add(root, k.reg, "version", tvb(0, 0), l.version):set_generated()
		local v = booster_fields(tvb, root, k, l)
		local what = string.format("team %d player %d #%d", v.team_number, v.player_number, v.communication_id)
		if v.role then
			what = what .. " " .. (l.roles[v.role] or BOOSTER.undefined_role)
		end
		if k.sizes:find(" ") then -- more than one revision: name it
			what = l.version .. ", " .. what
		end
		if v.bad then
			what = what .. ", " .. v.bad
		end
		root:append_text(", " .. what)
		pinfo.cols.info = k.info .. " " .. what
		return n
	end

	-- booster_kind returns the packet kind of tvb by its magic, or nil.
	local function booster_kind(tvb)
		if tvb:len() < 4 then
			return nil
		end
		local m = tvb(0, 4):le_int()
		for _, k in pairs(kinds) do
			if m == k.spec.magic then
				return k
			end
		end
		return nil
	end

	-- On the Booster ports every datagram is Booster: the magic, else the size decides.
	local function booster_port(tvb, pinfo, tree)
		local k = booster_kind(tvb)
		if not k then
			k = kinds.discovery.spec.layouts[tvb:len()] and kinds.discovery or kinds.message
		end
		return booster_dissect(tvb, pinfo, tree, k)
	end

	kinds.message.proto.dissector = booster_port
	kinds.discovery.proto.dissector = function(tvb, pinfo, tree)
		return booster_dissect(tvb, pinfo, tree, kinds.discovery)
	end

	-- On the team port a datagram with a Booster magic is Booster (zju before it takes only
	-- its exact size, which no Booster packet has); formats without a magic come after.
	local entry = { name = "booster", dissect = function(tvb, pinfo, tree)
		local k = booster_kind(tvb)
		if not k then
			return 0
		end
		return booster_dissect(tvb, pinfo, tree, k)
	end }
	local at = #TEAM_FORMATS + 1
	for i, f in ipairs(TEAM_FORMATS) do
		if f.name == "zju" then
			at = i + 1
		end
	end
	table.insert(TEAM_FORMATS, at, entry)

	local udp_port = DissectorTable.get("udp.port")
	for team = 0, BOOSTER.teams - 1 do
		udp_port:add(BOOSTER.ports.discovery + team, kinds.message.proto)
		udp_port:add(BOOSTER.ports.unicast + team, kinds.message.proto)
	end
	-- elsewhere: the magic and an exact size, as dnetwork decode recognises them
	kinds.message.proto:register_heuristic("udp", function(tvb, pinfo, tree)
		local k = booster_kind(tvb)
		return k ~= nil and k.spec.layouts[tvb:len()] ~= nil and booster_dissect(tvb, pinfo, tree, k) > 0
	end)
end
