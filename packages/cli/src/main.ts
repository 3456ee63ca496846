export async function main(argv: string[]): Promise<number> {
  console.log("reelay", argv.join(" "));
  return 0;
}
