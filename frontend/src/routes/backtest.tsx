import { useParams } from "react-router";
import { BacktestPage } from "@/features/backtest/components/BacktestPage";

export function BacktestRoute() {
  const { slug = "" } = useParams();
  return <BacktestPage key={slug} slug={slug} />;
}
