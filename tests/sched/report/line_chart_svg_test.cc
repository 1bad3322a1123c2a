// The line chart: one line and one marker per point for each series, whiskers where given,
// a legend entry per series, escaped text, stable bytes, and a clear error when there is
// nothing to draw.
#include "sched/report/line_chart_svg.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace mrlocal {
namespace {

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

LineChart TwoSeries() {
  LineChart c;
  c.title = "Reduce phase against p";
  c.x_label = "partitions p";
  c.y_label = "reduce phase (ms)";
  c.series = {{"hash", {{8, 900, {}, {}}}},
              {"dp-sketch", {{80, 300, 280, 350}, {8, 500, 450, 640}, {40, 320, 300, 330}}}};
  return c;
}

TEST(LineChartSvg, DrawsEachSeriesWithItsPointsWhiskersAndLegend) {
  Result<std::string> svg = LineChartSvg(TwoSeries());
  ASSERT_TRUE(svg.ok()) << svg.status().message();
  EXPECT_EQ(Count(*svg, "<g class=\"series\""), 2u);
  EXPECT_EQ(Count(*svg, "r=\"3.5\"><title>"), 4u);  // one marker per point
  EXPECT_EQ(Count(*svg, "<polyline"), 1u);          // a single point needs no line
  EXPECT_EQ(Count(*svg, "class=\"whisker\""), 3u);
  EXPECT_EQ(Count(*svg, "<g class=\"legend\""), 2u);
  EXPECT_NE(svg->find("(min 450, max 640)"), std::string::npos);
  EXPECT_NE(svg->find(">partitions p</text>"), std::string::npos);
  EXPECT_NE(svg->find(">reduce phase (ms)</text>"), std::string::npos);
  EXPECT_EQ(svg->rfind("</svg>\n"), svg->size() - 7);
}

TEST(LineChartSvg, DrawsPointsInAscendingX) {
  Result<std::string> svg = LineChartSvg(TwoSeries());
  ASSERT_TRUE(svg.ok());
  const size_t x8 = svg->find("x 8, y 500"), x40 = svg->find("x 40, y 320"),
               x80 = svg->find("x 80, y 300");
  ASSERT_NE(x8, std::string::npos);
  EXPECT_LT(x8, x40);
  EXPECT_LT(x40, x80);
}

TEST(LineChartSvg, TicksAreRoundNumbersAndLogXHasDecades) {
  LineChart c = TwoSeries();
  Result<std::string> linear = LineChartSvg(c);
  ASSERT_TRUE(linear.ok());
  EXPECT_NE(linear->find(">1000</text>"), std::string::npos);  // y covers 900 with a round tick
  c.log_x = true;
  Result<std::string> log = LineChartSvg(c);
  ASSERT_TRUE(log.ok());
  for (const char* tick : {">10</text>", ">20</text>", ">50</text>"})
    EXPECT_NE(log->find(tick), std::string::npos) << tick;
  EXPECT_NE(log->find("(log scale)"), std::string::npos);
}

TEST(LineChartSvg, EscapesNamesAndTitles) {
  LineChart c = TwoSeries();
  c.title = "a <b> & \"c\"";
  c.series[0].name = "lb<sketch>&co";
  Result<std::string> svg = LineChartSvg(c);
  ASSERT_TRUE(svg.ok());
  EXPECT_NE(svg->find("lb&lt;sketch&gt;&amp;co"), std::string::npos);
  EXPECT_NE(svg->find("a &lt;b&gt; &amp; &quot;c&quot;"), std::string::npos);
  EXPECT_EQ(svg->find("lb<sketch>"), std::string::npos);
}

TEST(LineChartSvg, SameChartSameBytes) {
  EXPECT_EQ(*LineChartSvg(TwoSeries()), *LineChartSvg(TwoSeries()));
}

TEST(LineChartSvg, NothingToDrawIsAClearError) {
  LineChart none;
  Result<std::string> svg = LineChartSvg(none);
  ASSERT_FALSE(svg.ok());
  EXPECT_EQ(svg.status().code(), Status::Code::kInvalidArgument);
  EXPECT_NE(svg.status().message().find("no points"), std::string::npos);

  none.series = {{"empty", {}}};
  EXPECT_FALSE(LineChartSvg(none).ok());
}

TEST(LineChartSvg, RejectsNonPositiveXOnALogAxisAndNonFiniteValues) {
  LineChart c = TwoSeries();
  c.log_x = true;
  c.series[0].points[0].x = 0;
  Result<std::string> svg = LineChartSvg(c);
  ASSERT_FALSE(svg.ok());
  EXPECT_NE(svg.status().message().find("'hash'"), std::string::npos);

  c = TwoSeries();
  c.series[1].points[0].y = std::nan("");
  EXPECT_FALSE(LineChartSvg(c).ok());
}

TEST(LineChartSvg, ASinglePointGetsAnAxisAroundIt) {
  LineChart c;
  c.series = {{"one", {{5, 7, {}, {}}}}};
  Result<std::string> svg = LineChartSvg(c);
  ASSERT_TRUE(svg.ok());
  EXPECT_EQ(Count(*svg, "r=\"3.5\"><title>"), 1u);
  EXPECT_EQ(svg->find("nan"), std::string::npos);
  EXPECT_EQ(svg->find("inf"), std::string::npos);
}

}  // namespace
}  // namespace mrlocal
