// Canonical text and Fast CDR (de)serialisation of the messages the peer exchanges with
// dnetwork, written out by hand from msgs/msg/*.msg and rcl_interfaces, the way
// rosidl_typesupport_fastrtps_cpp serialises them. Included by peer.cpp only.
#pragma once

#include <fastcdr/Cdr.h>
#include <fastcdr/FastBuffer.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using eprosima::fastcdr::Cdr;
using eprosima::fastcdr::FastBuffer;

// A serialised sample: encapsulation header and body.
struct Bytes {
  std::vector<uint8_t> b;
};

static std::string hex(const void *p, size_t n)
{
  if (n == 0)
    return "-";
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (size_t i = 0; i < n; i++) {
    uint8_t b = static_cast<const uint8_t *>(p)[i];
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s;
}

// ---------------------------------------------------------------------------------
// Canonical text of decoded fields.

struct Out {
  std::ostringstream s;
  void tok(const std::string &t) { s << ' ' << t; }
  void u(uint64_t v) { s << ' ' << v; }
  void i(int64_t v) { s << ' ' << v; }
  void f(float v)
  {
    uint32_t b;
    std::memcpy(&b, &v, 4);
    char buf[16];
    std::snprintf(buf, sizeof buf, "%08x", b);
    tok(buf);
  }
  void d(double v)
  {
    uint64_t b;
    std::memcpy(&b, &v, 8);
    char buf[24];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(b));
    tok(buf);
  }
  void str(const std::string &v) { tok(hex(v.data(), v.size())); }
  std::string text() const { return s.str(); }
};

// Decoding, as rosidl_typesupport_fastrtps_cpp does: bool as uint8, strings and
// sequences with their uint32 length first.
struct Dec {
  Cdr &c;
  Out &o;
  uint8_t u8() { uint8_t v; c >> v; o.u(v); return v; }
  void b() { uint8_t v; c >> v; o.u(v); }
  void u16() { uint16_t v; c >> v; o.u(v); }
  void i16() { int16_t v; c >> v; o.i(v); }
  void u32() { uint32_t v; c >> v; o.u(v); }
  void i32() { int32_t v; c >> v; o.i(v); }
  void i64() { int64_t v; c >> v; o.i(v); }
  void f32() { float v; c >> v; o.f(v); }
  void f64() { double v; c >> v; o.d(v); }
  void str() { std::string v; c >> v; o.str(v); }
  uint32_t len() { uint32_t n; c >> n; o.u(n); return n; }
  void time() { i32(); u32(); }          // builtin_interfaces/Time, Duration
  void vec3() { f64(); f64(); f64(); }   // geometry_msgs/Vector3
  void head() { f32(); f32(); f32(); f32(); } // dmsgs/HeadCommand
};

static void dec_gcinfo(Dec &d)
{
  d.time();
  d.b();
  d.str();
  for (int k = 0; k < 6; k++) d.u8(); // game_type state game_phase set_play secondary_state set_play_team
  for (int k = 0; k < 18; k++) d.b(); // our_* (6), enemy_* (6), ready freeze kickoff drop_ball first_half stopped
  d.u16();
  d.u16();
  d.b();
  for (int k = 0; k < 6; k++) d.u8(); // penalty secs_till_unpenalised our_score enemy_score team_colour enemy_colour
  d.i32();
}

static void dec_teaminfo(Dec &d)
{
  d.time(); d.time(); d.time();        // sender_time receive_time age
  d.u32();                             // sequence
  d.u8(); d.b(); d.u8(); d.u8(); d.u8(); d.b(); d.u8(); d.b(); // format .. attack_right
  d.vec3(); d.vec3(); d.vec3();        // dest final_dest attack_target
  d.f32();                             // time_since_last_kick
  d.u8(); d.b(); d.u8();               // state priority kicker_id
  for (int k = 0; k < 6; k++) d.b();   // mates_online
  d.b(); d.b(); d.b();                 // see_ball see_circle see_goal
  for (int k = 0; k < 7; k++) d.vec3(); // robot_pos .. goal_global
  d.f32(); d.f32(); d.f32();           // ball_quality field_quality field_consistency
  d.b(); d.u8(); d.u8(); d.b(); d.b(); d.b(); d.u8(); d.u8(); // gc_connected .. set_play
  d.f32(); d.f32();                    // time_to_reach_ball ball_age
  d.vec3();                            // team_ball_global
  for (uint32_t n = d.len(), k = 0; k < n; k++) d.vec3(); // voronoi_list
  d.b();                               // clock_offset_known
  d.time(); d.time(); d.time(); d.time(); // clock_offset clock_offset_bound sender_time_local delay
}

static void dec_gcplayer(Dec &d)
{
  for (int k = 0; k < 6; k++) d.u8();
  d.b();
}

static void dec_gcdata(Dec &d)
{
  d.time(); d.str();                   // header
  d.str(); d.str(); d.u8(); d.str();   // source magic version layout
  for (int k = 0; k < 9; k++) d.u8();  // packet_number .. set_play_raw
  d.b(); d.u8(); d.b();                // first_half kicking_team stopped
  d.i32(); d.i32();                    // secs_remaining secondary_time
  for (int k = 0; k < 4; k++) d.u8();  // secondary_state_info
  d.u8(); d.i16();                     // drop_in_team drop_in_time
  for (int t = 0; t < 2; t++) {
    for (int k = 0; k < 6; k++) d.u8();
    d.u16(); d.u16(); d.u8();
    for (uint32_t n = d.len(), k = 0; k < n; k++) d.u8(); // coach_message
    dec_gcplayer(d);
    for (uint32_t n = d.len(), k = 0; k < n; k++) dec_gcplayer(d);
  }
}

static void dec_motion(Dec &d)
{
  d.b(); d.b(); d.time(); d.b(); d.b(); d.head(); d.vec3(); d.vec3(); d.u8();
  for (uint32_t n = d.len(), k = 0; k < n; k++) d.f64();
  for (uint32_t n = d.len(), k = 0; k < n; k++) d.f64();
}

static void dec_behavior(Dec &d)
{
  d.u8(); d.str(); d.vec3(); d.vec3(); d.vec3();
  d.b(); d.b(); d.b(); d.b(); d.u8(); d.u8(); d.b();
  for (int k = 0; k < 6; k++) d.b();
  d.f32(); d.f32(); d.vec3();
  for (uint32_t n = d.len(), k = 0; k < n; k++) d.vec3();
}

static void dec_vision(Dec &d)
{
  for (int k = 0; k < 9; k++) d.b();
  d.f32(); d.f32(); d.f32();
  for (int k = 0; k < 8; k++) d.vec3();
  for (uint32_t n = d.len(), k = 0; k < n; k++) d.vec3(); // obstacles_field
  for (uint32_t n = d.len(), k = 0; k < n; k++) d.vec3(); // obstacles_global
  for (uint32_t n = d.len(), k = 0; k < n; k++) { d.u8(); d.f32(); d.f32(); } // features_field
  d.vec3();                                               // corner_global
  for (uint32_t n = d.len(), k = 0; k < n; k++) { d.vec3(); d.vec3(); } // lines_field
  for (uint32_t n = d.len(), k = 0; k < n; k++) d.vec3(); // view_range
  for (uint32_t n = d.len(), k = 0; k < n; k++) { d.vec3(); d.f32(); } // particles
  for (int k = 0; k < 5; k++) d.head();
  dec_behavior(d);
}

// rcl_interfaces/msg/ParameterValue
static void dec_param_value(Dec &d)
{
  d.u8(); d.b(); d.i64(); d.f64(); d.str();
  for (uint32_t n = d.len(), k = 0; k < n; k++) d.u8();
  for (uint32_t n = d.len(), k = 0; k < n; k++) d.b();
  for (uint32_t n = d.len(), k = 0; k < n; k++) d.i64();
  for (uint32_t n = d.len(), k = 0; k < n; k++) d.f64();
  for (uint32_t n = d.len(), k = 0; k < n; k++) d.str();
}

static void dec_get_parameters_response(Dec &d)
{
  for (uint32_t n = d.len(), k = 0; k < n; k++) dec_param_value(d);
}

static void dec_set_parameters_response(Dec &d)
{
  for (uint32_t n = d.len(), k = 0; k < n; k++) { d.b(); d.str(); }
}

static void dec_gcmessage_response(Dec &d)
{
  d.b();
  d.str();
}

static const std::map<std::string, std::function<void(Dec &)>> decoders = {
  {"gcinfo", dec_gcinfo}, {"teaminfo", dec_teaminfo}, {"gcdata", dec_gcdata},
  {"motion", dec_motion}, {"behavior", dec_behavior}, {"vision", dec_vision},
  {"get_parameters", dec_get_parameters_response}, {"set_parameters", dec_set_parameters_response},
  {"gcmessage", dec_gcmessage_response},
};

// decode returns the canonical fields of a sample (encapsulation header included), or
// an error text; skip bytes of the body come first (rmw_cyclonedds' request header).
static bool decode(const std::string &kind, const std::vector<uint8_t> &sample, size_t skip, std::string &text)
{
  auto it = decoders.find(kind);
  if (it == decoders.end()) {
    text = "unknown decoder " + kind;
    return false;
  }
  if (sample.size() < 4 || sample[0] != 0 || sample[1] != 1) {
    text = "not little-endian CDR: " + hex(sample.data(), sample.size() < 4 ? sample.size() : 4);
    return false;
  }
  std::vector<uint8_t> buf(sample);
  FastBuffer fb(reinterpret_cast<char *>(buf.data()), buf.size());
  Cdr c(fb, Cdr::DEFAULT_ENDIAN, Cdr::DDS_CDR);
  Out o;
  try {
    c.read_encapsulation();
    for (size_t k = 0; k < skip; k++) {
      uint8_t x;
      c >> x;
    }
    Dec d{c, o};
    it->second(d);
  } catch (const std::exception &e) {
    text = kind + ": " + e.what();
    return false;
  }
  // Up to 3 bytes of padding may follow; more means a field the decoder does not know.
  size_t left = buf.size() - c.getSerializedDataLength();
  if (left > 3) {
    text = kind + ": " + std::to_string(left) + " bytes after the last field (did the .msg change? update peer.cpp)";
    return false;
  }
  text = o.text();
  return true;
}

// ---------------------------------------------------------------------------------
// Encoding the robot's inputs, with values that depend on the robot number.

struct Enc {
  Cdr &c;
  Out &o;
  void u8(uint8_t v) { c << v; o.u(v); }
  void b(bool v) { uint8_t x = v ? 1 : 0; c << x; o.u(x); }
  void i32(int32_t v) { c << v; o.i(v); }
  void u32(uint32_t v) { c << v; o.u(v); }
  void f32(float v) { c << v; o.f(v); }
  void f64(double v) { c << v; o.d(v); }
  void str(const std::string &v) { c << v; o.str(v); }
  void len(uint32_t n) { c << n; o.u(n); }
  void vec3(double x, double y, double z) { f64(x); f64(y); f64(z); }
  void head(float p, float y) { f32(p); f32(y); f32(0.5f); f32(0.25f); }
};

static void enc_behavior(Enc &e, int robot)
{
  e.u8(3);                         // current_role: supporter
  e.str("support_from_fastdds");   // skill
  e.vec3(10, 20, 0); e.vec3(30, 40, 0); e.vec3(450, 0, 0); // dest final_dest attack_target
  e.b(false); e.b(true); e.b(false); e.b(true);           // save_image more_lines vision_correct_yaw attack_right
  e.u8(1);                         // team_play_state: playing
  e.u8(static_cast<uint8_t>(robot)); // kicker_id
  e.b(true);                       // team_play_priority
  for (int k = 0; k < 6; k++) e.b(k % 2 == 0);
  e.f32(1.5f); e.f32(2.25f);       // time_since_last_kick time_to_reach_ball
  e.vec3(150, -25, 0);             // ball_global
  e.len(2); e.vec3(1, 2, 3); e.vec3(-4, -5, -6); // voronoi
}

static void enc_motion(Enc &e, int robot)
{
  e.b(true); e.b(false);           // stable forward_or_backward
  e.i32(1700000000 + robot); e.u32(500);
  e.b(true); e.b(false);           // lower_board_connected support_stablizer_flag
  e.head(0.125f, -0.75f);          // cur_plat
  e.vec3(1.5, -2.5, 0.25); e.vec3(0.01, -0.02, 0.5); // odometry imu_rpy
  e.u8(1);                         // status: walking
  e.len(3); e.f64(0.1); e.f64(0.2); e.f64(0.3); // joint_feedback
  e.len(0);                        // neck_to_foot
}

static void enc_vision(Enc &e, int robot)
{
  e.b(true); e.b(true); e.b(false); e.b(false); e.b(true); e.b(true); e.b(false); e.b(true); e.b(false);
  e.f32(0.875f); e.f32(0.75f); e.f32(0.625f); // ball_quality field_quality field_consistency
  e.vec3(123.5 * robot, -45.25, 30);  // robot_pos
  e.vec3(80, 0, 0);                   // ball_field
  e.vec3(123.5 * robot + 80, -45.25, 0); // ball_global
  e.vec3(0, 0, 0);                    // ball_velocity
  e.vec3(200, 10, 0); e.vec3(300, 10, 0); // circle_field circle_global
  e.vec3(400, 0, 0); e.vec3(450, 0, 0);   // goal_field goal_global
  e.len(1); e.vec3(60, 60, 0);        // obstacles_field
  e.len(0);                           // obstacles_global
  e.len(2); e.u8(1); e.f32(1.25f); e.f32(-1.25f); e.u8(5); e.f32(3.5f); e.f32(0); // features_field
  e.vec3(450, 300, 0);                // corner_global
  e.len(1); e.vec3(0, 0, 0); e.vec3(100, 0, 0); // lines_field
  e.len(0);                           // view_range
  e.len(1); e.vec3(123.5 * robot, -45.25, 30); e.f32(0.5f); // particles
  e.head(0.1f, 0.2f); e.head(0.3f, 0.4f); e.head(0.5f, 0.6f); e.head(0.7f, 0.8f); e.head(0.9f, 1.0f);
  enc_behavior(e, robot);
}

static const std::map<std::string, std::function<void(Enc &, int)>> encoders = {
  {"motion", enc_motion}, {"behavior", enc_behavior}, {"vision", enc_vision},
};

// encode serialises a message with Fast CDR (encapsulation header first) and its
// canonical text.
template <typename F>
static Bytes encode(F body, std::string &text)
{
  std::vector<char> buf(64 * 1024);
  FastBuffer fb(buf.data(), buf.size());
  Cdr c(fb, Cdr::DEFAULT_ENDIAN, Cdr::DDS_CDR);
  c.serialize_encapsulation();
  Out o;
  body(c, o);
  text = o.text();
  Bytes b;
  b.b.assign(buf.data(), buf.data() + c.getSerializedDataLength());
  return b;
}

