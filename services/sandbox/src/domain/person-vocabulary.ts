/** The fixed word lists people's names, schools and personal addresses come from. Changing any list changes every seed's universe. */

// prettier-ignore
export const FIRST_NAMES = [
  'James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Elizabeth',
  'William', 'Barbara', 'Richard', 'Susan', 'Joseph', 'Jessica', 'Thomas', 'Sarah', 'Charles', 'Karen',
  'Christopher', 'Lisa', 'Daniel', 'Nancy', 'Matthew', 'Betty', 'Anthony', 'Margaret', 'Mark', 'Sandra',
  'Donald', 'Ashley', 'Steven', 'Kimberly', 'Paul', 'Emily', 'Andrew', 'Donna', 'Joshua', 'Michelle', 'Kevin',
  'Carol', 'Brian', 'Amanda', 'George', 'Melissa', 'Timothy', 'Deborah', 'Ronald', 'Stephanie', 'Jason',
  'Rebecca', 'Ryan', 'Laura', 'Jacob', 'Sharon', 'Gary', 'Cynthia', 'Nicholas', 'Kathleen', 'Eric', 'Amy',
  'Jonathan', 'Angela', 'Stephen', 'Shirley', 'Larry', 'Anna', 'Justin', 'Brenda', 'Scott', 'Pamela', 'Brandon',
  'Emma', 'Benjamin', 'Nicole', 'Samuel', 'Helen', 'Gregory', 'Samantha', 'Alexander', 'Katherine', 'Patrick',
  'Christine', 'Frank', 'Debra', 'Raymond', 'Rachel', 'Jack', 'Carolyn', 'Dennis', 'Janet', 'Jerry', 'Maria',
  'Tyler', 'Olivia', 'Aaron', 'Heather', 'Jose', 'Diane', 'Adam', 'Julie', 'Nathan', 'Joyce', 'Henry',
  'Victoria', 'Zachary', 'Ruth', 'Douglas', 'Virginia', 'Peter', 'Lauren', 'Kyle', 'Kelly', 'Noah', 'Christina',
  'Ethan', 'Joan', 'Jeremy', 'Evelyn', 'Priya', 'Arjun', 'Ananya', 'Rohan', 'Wei', 'Mei', 'Hiroshi', 'Yuki',
  'Min-jun', 'Seo-yeon', 'Lucas', 'Sofia', 'Mateo', 'Valentina', 'Leon', 'Lena', 'Lukas', 'Hannah', 'Finn',
  'Mia', 'Hugo', 'Chloe', 'Louis', 'Camille', 'Lars', 'Ingrid', 'Oscar', 'Freya', 'Diego', 'Lucia', 'Omar',
  'Layla', 'Yusuf', 'Amira', 'Noam', 'Tamar', 'Kwame', 'Ama', 'Tunde', 'Zara',
];

// prettier-ignore
export const LAST_NAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez',
  'Hernandez', 'Lopez', 'Gonzalez', 'Wilson', 'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin',
  'Lee', 'Perez', 'Thompson', 'White', 'Harris', 'Sanchez', 'Clark', 'Ramirez', 'Lewis', 'Robinson', 'Walker',
  'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores', 'Green', 'Adams', 'Nelson',
  'Baker', 'Hall', 'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts', 'Gomez', 'Phillips', 'Evans',
  'Turner', 'Diaz', 'Parker', 'Cruz', 'Edwards', 'Collins', 'Reyes', 'Stewart', 'Morris', 'Morales', 'Murphy',
  'Cook', 'Rogers', 'Gutierrez', 'Ortiz', 'Morgan', 'Cooper', 'Peterson', 'Bailey', 'Reed', 'Kelly', 'Howard',
  'Ramos', 'Kim', 'Cox', 'Ward', 'Richardson', 'Watson', 'Brooks', 'Chavez', 'Wood', 'James', 'Bennett', 'Gray',
  'Mendoza', 'Ruiz', 'Hughes', 'Price', 'Alvarez', 'Castillo', 'Sanders', 'Patel', 'Myers', 'Long', 'Ross',
  'Foster', 'Jimenez', 'Powell', 'Jenkins', 'Perry', 'Russell', 'Sullivan', 'Bell', 'Coleman', 'Butler',
  'Henderson', 'Barnes', 'Fischer', 'Schneider', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann',
  'Dubois', 'Moreau', 'Laurent', 'Lefebvre', 'Rossi', 'Russo', 'Ferrari', 'Esposito', 'Bianchi', 'Jansen',
  'de Vries', 'Bakker', 'Andersson', 'Johansson', 'Karlsson', 'Nilsson', 'Larsen', 'Hansen', 'Kowalski',
  'Nowak', 'Novak', 'Horvat', 'Sharma', 'Gupta', 'Singh', 'Kumar', 'Reddy', 'Iyer', 'Chen', 'Wang', 'Li',
  'Zhang', 'Liu', 'Yang', 'Huang', 'Tanaka', 'Suzuki', 'Sato', 'Takahashi', 'Park', 'Choi', 'Jung', 'Cohen',
  'Levi', 'Mizrahi', 'Haddad', 'Khalil', 'Mensah', 'Okafor', 'Adeyemi', 'Silva', 'Santos', 'Oliveira', 'Souza',
  'Pereira', 'Costa', "O'Brien", 'Byrne', 'Walsh', 'McCarthy', 'Fraser', 'MacDonald',
];

// prettier-ignore
export const SCHOOLS = [
  'Stanford University', 'MIT', 'UC Berkeley', 'Carnegie Mellon University', 'University of Washington',
  'University of Texas at Austin', 'Georgia Institute of Technology', 'University of Michigan',
  'Cornell University', 'University of Toronto', 'University of Waterloo', 'Imperial College London',
  'University of Oxford', 'University of Cambridge', 'University of Manchester', 'Trinity College Dublin',
  'TU Munich', 'Humboldt University of Berlin', 'Sorbonne University', 'University of Amsterdam',
  'KTH Royal Institute of Technology', 'Tel Aviv University', 'IIT Bombay', 'IISc Bangalore',
  'National University of Singapore', 'University of Sydney', 'University of Sao Paulo',
  'Arizona State University', 'Ohio State University', 'Penn State University', 'Boston University',
  'New York University',
];

export const FREE_MAIL_DOMAINS = [
  'gmail.com',
  'outlook.com',
  'yahoo.com',
  'icloud.com',
  'proton.me',
  'hotmail.com',
] as const;
