import { MongoClient } from 'mongodb';

/** Leaves the server as it was; not part of the port, so a plain driver call. */
export async function dropDatabase(url: string, database: string): Promise<void> {
  const client = await MongoClient.connect(url);
  try {
    await client.db(database).dropDatabase();
  } finally {
    await client.close();
  }
}
